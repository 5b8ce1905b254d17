import {
  type AttributeBag,
  asArray,
  asNumber,
  asRecord,
  asString,
  chatSamplingParameters,
  completionAttributes,
  GenAI,
  type GenAIWriteOptions,
  type JsonRecord,
  promptMessageAttributes,
  readToolDefinitions,
  requestAttributes,
  responseIdentityAttributes,
  type TokenUsage,
  tokenIdAttributes,
  toolDefinitionAttributes,
  usageAttributes,
} from '@arclight/core';
import type { Run } from '@langchain/core/tracers/base';
import { nonEmptyIntArray } from '../json.js';
import type { StreamAccumulator } from '../stream-accumulator.js';
import { LANGCHAIN_ENCODING } from './bag.js';
import { rawToolCall, toChatMessage } from './messages.js';
import { invocationParams, runMetadata } from './run.js';

/** Tool definitions: OpenAI's `{ type: 'function', function }`, or flat `{ name, description, parameters | input_schema }`. */
const TOOL_SHAPE = {
  schemaKeys: ['parameters', 'input_schema', 'schema'],
  customTools: false,
} as const;

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
  const stop = params.stop ?? metadata.ls_stop;
  const request = {
    type: groups.length === 0 && prompts.length > 0 ? 'completion' : 'chat',
    system,
    model:
      asString(params.model) ?? asString(params.model_name) ?? asString(metadata.ls_model_name),
    max_tokens: params.max_tokens ?? params.max_completion_tokens ?? metadata.ls_max_tokens,
    ...chatSamplingParameters(params),
    // Overrides the spread's value in place (the key keeps its position).
    temperature: params.temperature ?? metadata.ls_temperature,
    stop: typeof stop === 'string' || (Array.isArray(stop) && stop.length > 0) ? stop : undefined,
    logprobs: params.logprobs,
    top_logprobs: params.top_logprobs,
    return_token_ids: params.return_token_ids,
    streaming: params.stream === true,
  };
  bag.merge(requestAttributes(request, LANGCHAIN_ENCODING));
  const tools = [...asArray(params.functions), ...asArray(params.tools)];
  const definitions = readToolDefinitions(tools, TOOL_SHAPE);
  bag.merge(toolDefinitionAttributes(definitions, { encoding: LANGCHAIN_ENCODING }));
  const messages: readonly unknown[] = Array.isArray(groups[0])
    ? groups[0]
    : groups.length > 0
      ? groups
      : prompts.map((prompt) => ({ role: 'user', content: prompt }));
  const options = writeOptions(captureContent);
  let index = 0;
  for (const message of messages) {
    const record = toChatMessage(message);
    if (!record) continue;
    bag.merge(promptMessageAttributes(index, record, options));
    index += 1;
  }
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
  bag.merge(
    responseIdentityAttributes({
      id: asString(raw?.id) ?? (streamed ? stream.id : undefined) ?? asString(firstMessage?.id),
      model:
        asString(raw?.model) ??
        (streamed ? stream.model : undefined) ??
        asString(metadata.model_name),
      system_fingerprint:
        asString(raw?.system_fingerprint) ??
        (streamed ? stream.systemFingerprint : undefined) ??
        asString(metadata.system_fingerprint),
    }),
  );
  const usage = usageOf(asRecord(raw?.usage) ?? stream?.usage, firstMessage, metadata, output);
  if (usage) bag.merge(usageAttributes(usage));

  const options = writeOptions(captureContent);
  const rawChoices = asArray(raw?.choices);
  generations.forEach((value, position) => {
    const generation = asRecord(value);
    if (!generation) return;
    const rawChoice = asRecord(rawChoices[position]);
    const info = asRecord(generation.generationInfo) ?? {};
    const message = toChatMessage(generation.message) ?? {
      role: 'assistant',
      content: asString(generation.text),
      tool_calls: [],
    };
    const rawMessage = asRecord(rawChoice?.message);
    const completion = {
      finish_reason:
        asString(rawChoice?.finish_reason) ??
        (streamed ? stream.finishReason(position) : undefined) ??
        asString(info.finish_reason) ??
        asString(asRecord(asRecord(generation.message)?.response_metadata)?.finish_reason),
      role: asString(rawMessage?.role) ?? message.role,
      content: asString(rawMessage?.content) ?? message.content,
      refusal: asString(rawMessage?.refusal),
      tool_calls: rawMessage
        ? asArray(rawMessage.tool_calls)
            .map(rawToolCall)
            .filter((c) => c !== undefined)
        : message.tool_calls,
    };
    bag.merge(completionAttributes(position, completion, options));
  });

  const firstChoice = asRecord(rawChoices[0]);
  bag.merge(
    tokenIdAttributes({
      prompt_token_ids:
        nonEmptyIntArray(raw?.prompt_token_ids) ?? (streamed ? stream.promptTokenIds : undefined),
      response_token_ids:
        nonEmptyIntArray(firstChoice?.token_ids) ??
        (streamed ? stream.responseTokenIds(0) : undefined),
    }),
  );
}

function writeOptions(captureContent: boolean): GenAIWriteOptions {
  return { captureContent, encoding: LANGCHAIN_ENCODING };
}

/** The raw `chat.completion` a `ChatOpenAI` created with `__includeRawResponse: true` attaches to its message. */
function rawResponse(message: JsonRecord | undefined): JsonRecord | undefined {
  const kwargs =
    asRecord(message?.additional_kwargs) ?? asRecord(asRecord(message?.kwargs)?.additional_kwargs);
  const raw = asRecord(kwargs?.__raw_response);
  return raw && raw.object === 'chat.completion' ? raw : undefined;
}

/** Usage from the raw response or `response_metadata.usage`, else `usage_metadata`, else `llmOutput`. */
function usageOf(
  rawUsage: JsonRecord | undefined,
  message: JsonRecord | undefined,
  metadata: JsonRecord,
  output: JsonRecord,
): TokenUsage | undefined {
  const usage = rawUsage ?? asRecord(metadata.usage);
  if (usage && asNumber(usage.prompt_tokens) !== undefined) {
    return tokenUsage(usage.prompt_tokens, usage.completion_tokens, usage.total_tokens);
  }
  const standard = asRecord(message?.usage_metadata);
  if (standard) {
    return tokenUsage(standard.input_tokens, standard.output_tokens, standard.total_tokens);
  }
  const counts = asRecord(asRecord(output.llmOutput)?.tokenUsage);
  if (counts) {
    return tokenUsage(counts.promptTokens, counts.completionTokens, counts.totalTokens);
  }
  return undefined;
}

function tokenUsage(prompt: unknown, completion: unknown, total: unknown): TokenUsage {
  return {
    prompt_tokens: asNumber(prompt),
    completion_tokens: asNumber(completion),
    total_tokens: asNumber(total),
  };
}
