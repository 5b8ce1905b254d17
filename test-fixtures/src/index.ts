export {
  type AssistantSegment,
  assistantSegments,
  type ChatTemplateOptions,
  contentText,
  normalizeTools,
  renderChatTemplate,
} from './chat-template.js';
export type { Generation, GenToolCall } from './generation.js';
export { canonicalJson, deterministicId } from './hash.js';
export {
  type ChatLogprob,
  type LegacyLogprobs,
  type TopLogprob,
  tokenLogprob,
} from './logprobs.js';
export {
  defaultRecordingsPath,
  findRepoRoot,
  loadRecordings,
  RECORDINGS_FILE,
  recordingKey,
} from './recordings.js';
export { DEFAULT_MODEL, LEGACY_DEFAULT_MAX_TOKENS, responsesMessages } from './requests.js';
export * from './responders/index.js';
export * from './room-selector-task/rooms.js';
export * from './room-selector-task/tasks.js';
export {
  DEFAULT_CREATED,
  FIXTURE_TOKENIZER_ENV,
  type FixtureLlm,
  type FixtureLlmOptions,
  startFixtureLlm,
} from './server.js';
export {
  ASCII_BASE,
  BYTE_BASE,
  BYTE_VOCAB_SIZE,
  type EncodeOptions,
  EOS_ID,
  FixtureTokenizer,
  type FixtureTokenizerOptions,
  IM_END_ID,
  IM_START_ID,
  SPECIAL_TOKENS,
  TOKENIZER_VOCABULARIES,
  type TokenizerVocabulary,
  tokenizerVocabulary,
  UNICODE_BASE,
  VOCAB_SIZE,
} from './tokenizer.js';
export type * from './types.js';
