import type { Run } from '@langchain/core/tracers/base';
import {
  asArray,
  asIntArray,
  asNumber,
  asRecord,
  asString,
  isRecord,
  type JsonRecord,
} from '../json.js';
import type { StreamAccumulator } from '../stream-accumulator.js';
import type { AttributeBag } from './bag.js';
import { GenAI, TokenAttributes } from './keys.js';
import {
  type ChatMessageRecord,
  rawToolCall,
  type ToolCallRecord,
  toChatMessage,
} from './messages.js';
import { invocationParams, runMetadata } from './run.js';

/** `gen_ai.request.*`, tool definitions and `gen_ai.prompt.N.*` of an LLM-call span, from the starting run. */
export function writeLlmRequest(
  bag: AttributeBag,
  run: Run,
  system: string,
  captureContent: boolean,
): void {
  const params = invocationParams(run);
  const metadata = runMetadata(run);
  const groups = asArray(run.inputs?.messages);
  const prompts = asArray(run.inputs?.prompts);
  bag.set(GenAI.REQUEST_TYPE, groups.length === 0 && prompts.length > 0 ? 'completion' : 'chat');
  bag.set(GenAI.SYSTEM, system);
  bag.set(
    GenAI.REQUEST_MODEL,
    asString(params.model) ?? asString(params.model_name) ?? asString(metadata.ls_model_name),
  );
  bag.set(
    GenAI.REQUEST_MAX_TOKENS,
    params.max_tokens ?? params.max_completion_tokens ?? metadata.ls_max_tokens,
  );
  bag.set(GenAI.REQUEST_TEMPERATURE, params.temperature ?? metadata.ls_temperature);
  bag.set(GenAI.REQUEST_TOP_P, params.top_p);
  bag.set(GenAI.REQUEST_FREQUENCY_PENALTY, params.frequency_penalty);
  bag.set(GenAI.REQUEST_PRESENCE_PENALTY, params.presence_penalty);
  bag.set(GenAI.REQUEST_SEED, params.seed);
  bag.set(GenAI.REQUEST_N, params.n);
  const stop = params.stop ?? metadata.ls_stop;
  if (typeof stop === 'string' || (Array.isArray(stop) && stop.length > 0)) {
    bag.set(GenAI.REQUEST_STOP, stop);
  }
  bag.set(GenAI.REQUEST_LOGPROBS, params.logprobs);
  bag.set(GenAI.REQUEST_TOP_LOGPROBS, params.top_logprobs);
  bag.set(GenAI.REQUEST_RETURN_TOKEN_IDS, params.return_token_ids);
  bag.set(GenAI.REQUEST_STREAMING, params.stream === true);
  writeToolDefinitions(bag, params);
  const messages: readonly unknown[] = Array.isArray(groups[0])
    ? groups[0]
    : groups.length > 0
      ? groups
      : prompts.map((prompt) => ({ role: 'user', content: prompt }));
  let index = 0;
  for (const message of messages) {
    const record = toChatMessage(message);
    if (!record) continue;
    writeMessage(bag, `${GenAI.PROMPT}.${index}`, record, captureContent);
    index += 1;
  }
}

/** Tool definitions: OpenAI's `{ type: 'function', function }`, or flat `{ name, description, parameters | input_schema }`. */
function writeToolDefinitions(bag: AttributeBag, params: JsonRecord): void {
  let index = 0;
  for (const value of [...asArray(params.functions), ...asArray(params.tools)]) {
    const tool = asRecord(value);
    const fn = asRecord(tool?.function) ?? tool;
    const name = asString(fn?.name);
    if (!fn || name === undefined) continue;
    const prefix = `${GenAI.REQUEST_FUNCTIONS}.${index}`;
    bag.set(`${prefix}.name`, name);
    bag.set(`${prefix}.description`, asString(fn.description));
    bag.setJson(`${prefix}.parameters`, fn.parameters ?? fn.input_schema ?? fn.schema);
    index += 1;
  }
}

function writeMessage(
  bag: AttributeBag,
  prefix: string,
  message: ChatMessageRecord,
  captureContent: boolean,
): void {
  bag.set(`${prefix}.role`, message.role);
  if (captureContent) bag.set(`${prefix}.content`, message.content);
  bag.set(`${prefix}.tool_call_id`, message.tool_call_id);
  writeToolCalls(bag, prefix, message.tool_calls, captureContent);
}

function writeToolCalls(
  bag: AttributeBag,
  prefix: string,
  calls: readonly ToolCallRecord[],
  captureContent: boolean,
): void {
  calls.forEach((call, j) => {
    bag.set(`${prefix}.tool_calls.${j}.id`, call.id);
    bag.set(`${prefix}.tool_calls.${j}.name`, call.name);
    if (captureContent) bag.set(`${prefix}.tool_calls.${j}.arguments`, call.arguments);
  });
}

/**
 * `gen_ai.response.*`, usage, `gen_ai.completion.N.*` and token ids of a finished LLM-call run. Sources, best
 * first: the raw provider response (`additional_kwargs.__raw_response`, `ChatOpenAI` with
 * `__includeRawResponse: true`), the raw chunks of a stream, then what LangChain keeps on the message
 * (`id`, `response_metadata`, `usage_metadata`, `tool_calls`).
 */
export function writeLlmResponse(
  bag: AttributeBag,
  run: Run,
  stream: StreamAccumulator | undefined,
  captureContent: boolean,
): void {
  const output = asRecord(run.outputs) ?? {};
  const generations = asArray(asArray(output.generations)[0]);
  const first = asRecord(generations[0]);
  const firstMessage = asRecord(first?.message);
  const raw = rawResponse(firstMessage);
  const metadata = asRecord(firstMessage?.response_metadata) ?? {};

  const streamed = stream !== undefined && stream.chunks > 0;
  if (streamed) bag.set(GenAI.REQUEST_STREAMING, true);
  bag.set(
    GenAI.RESPONSE_ID,
    asString(raw?.id) ?? (streamed ? stream.id : undefined) ?? asString(firstMessage?.id),
  );
  bag.set(
    GenAI.RESPONSE_MODEL,
    asString(raw?.model) ?? (streamed ? stream.model : undefined) ?? asString(metadata.model_name),
  );
  bag.set(
    GenAI.OPENAI_SYSTEM_FINGERPRINT,
    asString(raw?.system_fingerprint) ??
      (streamed ? stream.systemFingerprint : undefined) ??
      asString(metadata.system_fingerprint),
  );
  writeUsage(bag, asRecord(raw?.usage) ?? stream?.usage, firstMessage, metadata, output);

  const rawChoices = asArray(raw?.choices);
  generations.forEach((value, position) => {
    const generation = asRecord(value);
    if (!generation) return;
    const rawChoice = asRecord(rawChoices[position]);
    const prefix = `${GenAI.COMPLETION}.${position}`;
    const info = asRecord(generation.generationInfo) ?? {};
    const message = toChatMessage(generation.message) ?? {
      role: 'assistant',
      content: asString(generation.text),
      tool_calls: [],
    };
    const rawMessage = asRecord(rawChoice?.message);
    const toolCalls = rawMessage
      ? asArray(rawMessage.tool_calls)
          .map(rawToolCall)
          .filter((c) => c !== undefined)
      : message.tool_calls;
    bag.set(
      `${prefix}.finish_reason`,
      asString(rawChoice?.finish_reason) ??
        (streamed ? stream.finishReason(position) : undefined) ??
        asString(info.finish_reason) ??
        asString(asRecord(asRecord(generation.message)?.response_metadata)?.finish_reason),
    );
    bag.set(`${prefix}.role`, asString(rawMessage?.role) ?? message.role);
    if (captureContent) {
      bag.set(`${prefix}.content`, asString(rawMessage?.content) ?? message.content);
      bag.set(`${prefix}.refusal`, asString(rawMessage?.refusal));
    }
    writeToolCalls(bag, prefix, toolCalls, captureContent);
  });

  const firstChoice = asRecord(rawChoices[0]);
  const promptIds =
    asIntArray(raw?.prompt_token_ids) ?? (streamed ? stream.promptTokenIds : undefined);
  const responseIds =
    asIntArray(firstChoice?.token_ids) ?? (streamed ? stream.responseTokenIds(0) : undefined);
  if (promptIds) bag.set(TokenAttributes.PROMPT_TOKEN_IDS, promptIds);
  if (responseIds) bag.set(TokenAttributes.RESPONSE_TOKEN_IDS, responseIds);
}

/** The raw `chat.completion` a `ChatOpenAI` created with `__includeRawResponse: true` attaches to its message. */
function rawResponse(message: JsonRecord | undefined): JsonRecord | undefined {
  const kwargs =
    asRecord(message?.additional_kwargs) ?? asRecord(asRecord(message?.kwargs)?.additional_kwargs);
  const raw = asRecord(kwargs?.__raw_response);
  return raw && raw.object === 'chat.completion' ? raw : undefined;
}

function writeUsage(
  bag: AttributeBag,
  rawUsage: JsonRecord | undefined,
  message: JsonRecord | undefined,
  metadata: JsonRecord,
  output: JsonRecord,
): void {
  const usage = rawUsage ?? asRecord(metadata.usage);
  if (usage && isRecord(usage) && asNumber(usage.prompt_tokens) !== undefined) {
    bag.set(GenAI.USAGE_PROMPT_TOKENS, asNumber(usage.prompt_tokens));
    bag.set(GenAI.USAGE_COMPLETION_TOKENS, asNumber(usage.completion_tokens));
    bag.set(GenAI.USAGE_TOTAL_TOKENS, asNumber(usage.total_tokens));
    return;
  }
  const standard = asRecord(message?.usage_metadata);
  if (standard) {
    bag.set(GenAI.USAGE_PROMPT_TOKENS, asNumber(standard.input_tokens));
    bag.set(GenAI.USAGE_COMPLETION_TOKENS, asNumber(standard.output_tokens));
    bag.set(GenAI.USAGE_TOTAL_TOKENS, asNumber(standard.total_tokens));
    return;
  }
  const tokenUsage = asRecord(asRecord(output.llmOutput)?.tokenUsage);
  if (tokenUsage) {
    bag.set(GenAI.USAGE_PROMPT_TOKENS, asNumber(tokenUsage.promptTokens));
    bag.set(GenAI.USAGE_COMPLETION_TOKENS, asNumber(tokenUsage.completionTokens));
    bag.set(GenAI.USAGE_TOTAL_TOKENS, asNumber(tokenUsage.totalTokens));
  }
}
