import '@arclight/core/supported-node'; // first: a clear error on Node.js < 22.13

export type { Conversation } from './conversation.js';
export { conversationsOf } from './conversation.js';
export { EmptyExportError, SKIP_FIXES, skipExplanations } from './empty-export.js';
export { type ExportOptions, ExportWriter, writeExport } from './export-writer.js';
export { FORMAT_NAMES, type FormatName } from './format-names.js';
export type {
  ArtChoice,
  ArtHistory,
  ArtTokenLogprob,
  ArtTokenLogprobs,
  ArtTrajectory,
  ArtTrajectoryGroup,
} from './formats/art.js';
export type {
  ExportFormat,
  FormatOptions,
  JsonlOutput,
  MergeOutcome,
  RolloutFormat,
  SkipCounter,
  TaskFormat,
} from './formats/format.js';
export type { OpenAiDpoRow, OpenAiSftRow } from './formats/openai.js';
export { FORMATS, formatByName } from './formats/registry.js';
export type { TripletLine } from './formats/triplets.js';
export type { TrlKtoRow, TrlPromptRow, TrlSftRow, TrlSftTokensRow } from './formats/trl.js';
export type { TrlDpoRow } from './formats/trl-dpo.js';
export { VERL_COLUMNS, type VerlRow } from './formats/verl.js';
export type { PreparedCall, PreparedRollout } from './prepared.js';
export { prepareRollout } from './prepared.js';
export type {
  CallMessages,
  ChatMessage,
  ChatTool,
  ChatToolCall,
  ExportRecord,
} from './record.js';
export { finalReward } from './reward.js';
export { JsonLine, type LineBuffer } from './sinks/json-line.js';
export type { ParquetColumn, ParquetColumnType } from './sinks/parquet-sink.js';
export {
  type DiagnoseOptions,
  diagnoseStore,
  type RolloutDiagnosis,
  type StoreDiagnosis,
} from './store/diagnose.js';
export {
  EXPORT_LLM_CALL_MATCH,
  type ExportFromStoreOptions,
  type ExportProgress,
  exportFromStore,
  type TripletAdapter,
} from './store/from-store.js';
export { compileSelection, parseSince, type RolloutSelection } from './store/rollout-filter.js';
export type { ExportSummary } from './summary.js';
export { recordTaskId, stableStringify, TASK_ID_METADATA_KEYS, taskIdOf } from './task-id.js';
export {
  type PrefixBreak,
  type PrefixBreakReason,
  type TokenRow,
  trajectoryRows,
  transitionRows,
} from './token-merge.js';
