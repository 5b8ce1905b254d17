import {
  AttributeBag,
  type AttributeRecord,
  asArray,
  asIntArray,
  asNumber,
  asRecord,
  asString,
  chatChoiceCompletion,
  chatResponseIdentity,
  chatSamplingParameters,
  completionAttributes,
  GEN_AI_SYSTEM_OPENAI,
  type JsonRecord,
  LlmCallSpanNames,
  type LlmRequestParameters,
  logprobsAttributes,
  promptAttributes,
  readResponsesOutput,
  readToolDefinitions,
  readUsage,
  requestAttributes,
  responseIdentityAttributes,
  responsesCompletion,
  responsesTokenAttributes,
  stopSequences,
  type ToolCallRecord,
  tokenIdAttributes,
  toolDefinitionAttributes,
  usageAttributes,
} from '@arclight/core';
import {
  ChatChunkAccumulator,
  CompletionChunkAccumulator,
  ResponsesEventAccumulator,
  type StreamAccumulator,
} from './stream-accumulators.js';

/** The OpenAI generation APIs the gateway records. */
export type ApiKind = 'chat' | 'completions' | 'responses';

/** What the gateway asks a vLLM-like backend for. */
export interface TokenRequest {
  tokenIds: boolean;
  logprobs: boolean;
}

/**
 * How one API's calls are written as spans — the layout `@arclight/instrumentation-openai` writes (AgentOps' `gen_ai.*`,
 * `prompt_token_ids`, `response_token_ids`, `logprobs.content`), built with `@arclight/core`'s gen_ai writers.
 */
export interface ApiEndpoint {
  readonly kind: ApiKind;
  readonly spanName: string;
  /** The body sent to the backend: `return_token_ids` (and logprobs) added where the client left them unset. */
  augment(body: JsonRecord, request: TokenRequest): JsonRecord;
  requestAttributes(body: JsonRecord): AttributeRecord;
  /** Attributes of a (possibly assembled) response and the tool calls of its first completion. */
  responseAttributes(response: JsonRecord): {
    attributes: AttributeRecord;
    toolCalls: ToolCallRecord[];
  };
  createAccumulator(): StreamAccumulator;
}

const CONTENT = { captureContent: true } as const;

function withDefaults(body: JsonRecord, extra: JsonRecord): JsonRecord {
  const out = { ...body };
  for (const [key, value] of Object.entries(extra)) if (out[key] === undefined) out[key] = value;
  return out;
}

function commonParameters(
  body: JsonRecord,
  type: 'chat' | 'completion',
  maxTokens: unknown,
): LlmRequestParameters {
  return {
    type,
    system: GEN_AI_SYSTEM_OPENAI,
    model: asString(body.model),
    max_tokens: maxTokens,
    ...chatSamplingParameters(body),
    stop: stopSequences(body.stop),
    streaming: body.stream === true,
    return_token_ids: body.return_token_ids,
  };
}

function toolDefinitions(body: JsonRecord): AttributeRecord {
  return toolDefinitionAttributes(
    readToolDefinitions([...asArray(body.functions), ...asArray(body.tools)]),
  );
}

function metadataAttributes(response: JsonRecord): AttributeRecord {
  const usage = readUsage(response.usage);
  return {
    ...responseIdentityAttributes(chatResponseIdentity(response)),
    ...(usage && usageAttributes(usage)),
  };
}

export const chatApi: ApiEndpoint = {
  kind: 'chat',
  spanName: LlmCallSpanNames.CHAT,
  augment(body, request) {
    const extra: JsonRecord = {};
    if (request.tokenIds) extra.return_token_ids = true;
    if (request.logprobs) extra.logprobs = true;
    return withDefaults(body, extra);
  },
  requestAttributes(body) {
    const bag = new AttributeBag();
    bag.merge(
      requestAttributes({
        ...commonParameters(body, 'chat', body.max_tokens ?? body.max_completion_tokens),
        logprobs: body.logprobs,
        top_logprobs: body.top_logprobs,
      }),
    );
    bag.merge(promptAttributes(asArray(body.messages), CONTENT));
    bag.merge(toolDefinitions(body));
    return bag.attributes;
  },
  responseAttributes(response) {
    const bag = new AttributeBag();
    bag.merge(metadataAttributes(response));
    let toolCalls: ToolCallRecord[] = [];
    asArray(response.choices).forEach((value, position) => {
      const choice = asRecord(value);
      if (!choice) return;
      const completion = chatChoiceCompletion(choice);
      bag.merge(completionAttributes(asNumber(choice.index) ?? position, completion, CONTENT));
      if (position === 0) toolCalls = [...(completion.tool_calls ?? [])];
    });
    const first = asRecord(asArray(response.choices)[0]);
    const legacy = asArray(response.response_token_ids)[0];
    bag.merge(
      tokenIdAttributes({
        prompt_token_ids: asIntArray(response.prompt_token_ids),
        response_token_ids: asIntArray(legacy ?? first?.token_ids),
      }),
    );
    const logprobs = asRecord(first?.logprobs);
    if (logprobs) bag.merge(logprobsAttributes(logprobs));
    return { attributes: bag.attributes, toolCalls };
  },
  createAccumulator: () => new ChatChunkAccumulator(),
};

export const completionsApi: ApiEndpoint = {
  kind: 'completions',
  spanName: LlmCallSpanNames.COMPLETION,
  augment(body, request) {
    const extra: JsonRecord = {};
    if (request.tokenIds) extra.return_token_ids = true;
    if (request.logprobs) extra.logprobs = 0;
    return withDefaults(body, extra);
  },
  requestAttributes(body) {
    const bag = new AttributeBag();
    bag.merge(
      requestAttributes({
        ...commonParameters(body, 'completion', body.max_tokens),
        logprobs: body.logprobs,
      }),
    );
    const prompt = body.prompt;
    const prompts =
      Array.isArray(prompt) && prompt.length > 0 && typeof prompt[0] !== 'number'
        ? prompt
        : [prompt];
    bag.merge(
      promptAttributes(
        prompts.map((p) =>
          p === undefined || p === null ? undefined : { role: 'user', content: p },
        ),
        CONTENT,
      ),
    );
    return bag.attributes;
  },
  responseAttributes(response) {
    const bag = new AttributeBag();
    bag.merge(metadataAttributes(response));
    asArray(response.choices).forEach((value, position) => {
      const choice = asRecord(value);
      if (!choice) return;
      bag.merge(
        completionAttributes(
          asNumber(choice.index) ?? position,
          {
            finish_reason: asString(choice.finish_reason),
            role: 'assistant',
            content: asString(choice.text),
          },
          CONTENT,
        ),
      );
    });
    const first = asRecord(asArray(response.choices)[0]);
    bag.merge(
      tokenIdAttributes({
        prompt_token_ids: asIntArray(first?.prompt_token_ids ?? response.prompt_token_ids),
        response_token_ids: asIntArray(first?.token_ids),
      }),
    );
    const logprobs = asRecord(first?.logprobs);
    if (logprobs) bag.merge(logprobsAttributes({ content: legacyToChatLogprobs(logprobs) }));
    return { attributes: bag.attributes, toolCalls: [] };
  },
  createAccumulator: () => new CompletionChunkAccumulator(),
};

const LOGPROBS_INCLUDE = 'message.output_text.logprobs';

export const responsesApi: ApiEndpoint = {
  kind: 'responses',
  spanName: LlmCallSpanNames.RESPONSES,
  augment(body, request) {
    const out = withDefaults(body, request.tokenIds ? { return_token_ids: true } : {});
    const include = asArray(body.include);
    if (request.logprobs && !include.includes(LOGPROBS_INCLUDE)) {
      out.include = [...include, LOGPROBS_INCLUDE];
    }
    return out;
  },
  requestAttributes(body) {
    const bag = new AttributeBag();
    bag.merge(
      requestAttributes({
        ...commonParameters(body, 'chat', body.max_output_tokens),
        top_logprobs: body.top_logprobs,
      }),
    );
    bag.merge(promptAttributes(responsesPromptMessages(body), CONTENT));
    bag.merge(toolDefinitions(body));
    return bag.attributes;
  },
  responseAttributes(response) {
    const bag = new AttributeBag();
    bag.merge(metadataAttributes(response));
    const output = readResponsesOutput(response);
    bag.merge(completionAttributes(0, responsesCompletion(response, output), CONTENT));
    bag.merge(responsesTokenAttributes(response, output, CONTENT));
    return { attributes: bag.attributes, toolCalls: output.toolCalls };
  },
  createAccumulator: () => new ResponsesEventAccumulator(),
};

/** Legacy completion logprobs (`tokens`, `token_logprobs`, `top_logprobs`) in the chat layout. */
function legacyToChatLogprobs(logprobs: JsonRecord): JsonRecord[] {
  const values = asArray(logprobs.token_logprobs);
  const tops = asArray(logprobs.top_logprobs);
  return asArray(logprobs.tokens).map((token, j) => ({
    token: asString(token) ?? String(token),
    logprob: asNumber(values[j]) ?? null,
    bytes: null,
    top_logprobs: Object.entries(asRecord(tops[j]) ?? {}).map(([alt, lp]) => ({
      token: alt,
      logprob: asNumber(lp) ?? null,
      bytes: null,
    })),
  }));
}

/** A Responses request's `instructions` + `input` as chat messages. */
function responsesPromptMessages(body: JsonRecord): JsonRecord[] {
  const messages: JsonRecord[] = [];
  if (typeof body.instructions === 'string')
    messages.push({ role: 'system', content: body.instructions });
  if (typeof body.input === 'string') {
    messages.push({ role: 'user', content: body.input });
    return messages;
  }
  for (const value of asArray(body.input)) {
    const item = asRecord(value);
    if (!item) continue;
    const type = asString(item.type) ?? 'message';
    if (type === 'message') messages.push({ role: item.role, content: item.content });
    else if (type === 'function_call') {
      const call = {
        id: asString(item.call_id),
        function: { name: item.name, arguments: item.arguments },
      };
      const last = messages.at(-1);
      if (last?.role === 'assistant' && Array.isArray(last.tool_calls)) last.tool_calls.push(call);
      else messages.push({ role: 'assistant', content: null, tool_calls: [call] });
    } else if (type === 'function_call_output') {
      messages.push({ role: 'tool', tool_call_id: item.call_id, content: item.output });
    }
  }
  return messages;
}

export const API_ENDPOINTS: Readonly<Record<ApiKind, ApiEndpoint>> = {
  chat: chatApi,
  completions: completionsApi,
  responses: responsesApi,
};
