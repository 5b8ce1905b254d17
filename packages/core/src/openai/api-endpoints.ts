import {
  type AttributeBag,
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
  type GenAIWriteOptions,
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
} from '../genai/index.js';
import {
  ChatStreamAccumulator,
  CompletionStreamAccumulator,
  ResponsesStreamAccumulator,
  type StreamAccumulator,
} from './stream-accumulators.js';

/** The OpenAI generation APIs Arclight records (the SDK instrumentation and the gateway alike). */
export type OpenAIApiKind = 'chat' | 'completions' | 'responses';

/** The opt-in fields a recorder adds to a request where the caller left them unset. */
export interface OpenAITokenRequest {
  /** `return_token_ids: true` (vLLM >= 0.10.2). */
  readonly requestTokenIds: boolean;
  /** `true`: the sampled tokens' logprobs; a number: also that many alternatives per token. */
  readonly requestLogprobs: boolean | number;
}

/**
 * How one OpenAI API's calls are written as spans: AgentOps' layout (`gen_ai.*`, `prompt_token_ids`,
 * `response_token_ids`, `logprobs.content`) built with the gen_ai writers. Side-effect free: the SDK
 * instrumentation and the gateway both record through these.
 */
export interface OpenAIApiEndpoint {
  readonly kind: OpenAIApiKind;
  /** The path below the API base URL (`/chat/completions`). */
  readonly path: string;
  readonly spanName: string;
  /** Adds the opt-in request fields; returns `body` itself when there is nothing to add. */
  augmentBody(body: JsonRecord, request: OpenAITokenRequest): JsonRecord;
  requestAttributes(body: JsonRecord, options: GenAIWriteOptions, bag: AttributeBag): void;
  /** Writes response attributes; returns the tool calls of the first completion. */
  responseAttributes(
    response: JsonRecord,
    options: GenAIWriteOptions,
    bag: AttributeBag,
  ): ToolCallRecord[];
  /** Error message when a successfully received response reports a failure (Responses `status: failed`). */
  responseFailure(response: JsonRecord): string | undefined;
  createAccumulator(): StreamAccumulator;
}

/** Returns a copy of `body` with `extra`'s fields that `body` does not set, or `body` if nothing changes. */
function withDefaults(body: JsonRecord, extra: JsonRecord): JsonRecord {
  let out: JsonRecord | undefined;
  for (const [key, value] of Object.entries(extra)) {
    if (body[key] !== undefined) continue;
    out ??= { ...body };
    out[key] = value;
  }
  return out ?? body;
}

function tokenIdDefaults(request: OpenAITokenRequest): JsonRecord {
  return request.requestTokenIds ? { return_token_ids: true } : {};
}

/** `gen_ai.system`, `gen_ai.request.type` and the sampling parameters shared by all endpoints. */
function commonRequestParameters(
  body: JsonRecord,
  requestType: 'chat' | 'completion',
  maxTokens: unknown,
): LlmRequestParameters {
  return {
    type: requestType,
    system: GEN_AI_SYSTEM_OPENAI,
    model: asString(body.model),
    max_tokens: maxTokens,
    ...chatSamplingParameters(body),
    stop: stopSequences(body.stop),
    streaming: body.stream === true,
    return_token_ids: body.return_token_ids,
  };
}

/** `gen_ai.request.functions.N.*` of Chat tools, legacy `functions`, custom tools and the flat Responses shape. */
function toolDefinitionsAttributes(body: JsonRecord): AttributeRecord {
  return toolDefinitionAttributes(
    readToolDefinitions([...asArray(body.functions), ...asArray(body.tools)]),
  );
}

/** `gen_ai.response.id|model`, `gen_ai.openai.system_fingerprint` and `gen_ai.usage.*` of any endpoint. */
function responseMetadataAttributes(response: JsonRecord): AttributeRecord {
  const usage = readUsage(response.usage);
  return {
    ...responseIdentityAttributes(chatResponseIdentity(response)),
    ...(usage && usageAttributes(usage)),
  };
}

/** `client.chat.completions.create` → span `openai.chat.completion`. */
export const chatCompletionsApi: OpenAIApiEndpoint = {
  kind: 'chat',
  path: '/chat/completions',
  spanName: LlmCallSpanNames.CHAT,

  augmentBody(body, request) {
    const extra = tokenIdDefaults(request);
    // Only when the caller left logprobs unset: `top_logprobs` without `logprobs: true` is rejected.
    if (request.requestLogprobs !== false && body.logprobs === undefined) {
      extra.logprobs = true;
      if (typeof request.requestLogprobs === 'number') extra.top_logprobs = request.requestLogprobs;
    }
    return withDefaults(body, extra);
  },

  requestAttributes(body, options, bag) {
    const maxTokens = body.max_tokens ?? body.max_completion_tokens;
    bag.merge(
      requestAttributes({
        ...commonRequestParameters(body, 'chat', maxTokens),
        logprobs: body.logprobs,
        top_logprobs: body.top_logprobs,
      }),
    );
    bag.merge(promptAttributes(asArray(body.messages), options));
    bag.merge(toolDefinitionsAttributes(body));
  },

  responseAttributes(response, options, bag) {
    bag.merge(responseMetadataAttributes(response));
    let firstCalls: ToolCallRecord[] = [];
    asArray(response.choices).forEach((choiceValue, position) => {
      const choice = asRecord(choiceValue);
      if (!choice) return;
      const index = typeof choice.index === 'number' ? choice.index : position;
      const completion = chatChoiceCompletion(choice);
      bag.merge(completionAttributes(index, completion, options));
      if (position === 0) firstCalls = [...(completion.tool_calls ?? [])];
    });
    const first = asRecord(asArray(response.choices)[0]);
    bag.merge(
      tokenIdAttributes({
        prompt_token_ids: asIntArray(response.prompt_token_ids),
        response_token_ids: asIntArray(chatResponseTokenIds(response, first)),
      }),
    );
    const logprobs = asRecord(first?.logprobs);
    if (logprobs && options.captureContent) bag.merge(logprobsAttributes(logprobs));
    return firstCalls;
  },

  responseFailure: () => undefined,

  createAccumulator: () => new ChatStreamAccumulator(),
};

/** `choices[0].token_ids` (vLLM), or the legacy/LiteLLM shapes upstream also reads. */
function chatResponseTokenIds(response: JsonRecord, first: JsonRecord | undefined): unknown {
  const legacy = asArray(response.response_token_ids)[0];
  if (legacy !== undefined) return legacy;
  return first?.token_ids ?? asRecord(first?.provider_specific_fields)?.token_ids;
}

/** Legacy `client.completions.create` → span `openai.completion`. */
export const completionsApi: OpenAIApiEndpoint = {
  kind: 'completions',
  path: '/completions',
  spanName: LlmCallSpanNames.COMPLETION,

  augmentBody(body, request) {
    const extra = tokenIdDefaults(request);
    // Legacy `logprobs` is the number of alternatives per token; 0 returns the sampled tokens' logprobs.
    if (request.requestLogprobs !== false) {
      extra.logprobs = typeof request.requestLogprobs === 'number' ? request.requestLogprobs : 0;
    }
    return withDefaults(body, extra);
  },

  requestAttributes(body, options, bag) {
    bag.merge(
      requestAttributes({
        ...commonRequestParameters(body, 'completion', body.max_tokens),
        logprobs: body.logprobs,
      }),
    );
    // The prompt is a string, a list of strings, a token-id list or a list of token-id lists.
    const prompt = body.prompt;
    const prompts =
      Array.isArray(prompt) && prompt.length > 0 && typeof prompt[0] !== 'number'
        ? prompt
        : [prompt];
    const messages = prompts.map((p) =>
      p === undefined || p === null ? undefined : { role: 'user', content: p },
    );
    bag.merge(promptAttributes(messages, options));
    bag.merge(toolDefinitionsAttributes(body));
  },

  responseAttributes(response, options, bag) {
    bag.merge(responseMetadataAttributes(response));
    asArray(response.choices).forEach((choiceValue, position) => {
      const choice = asRecord(choiceValue);
      if (!choice) return;
      const index = typeof choice.index === 'number' ? choice.index : position;
      const completion = {
        finish_reason: asString(choice.finish_reason),
        role: 'assistant',
        content: asString(choice.text),
      };
      bag.merge(completionAttributes(index, completion, options));
    });
    const first = asRecord(asArray(response.choices)[0]);
    // vLLM puts a legacy completion's prompt ids on the choice (one prompt per choice).
    bag.merge(
      tokenIdAttributes({
        prompt_token_ids: asIntArray(first?.prompt_token_ids ?? response.prompt_token_ids),
        response_token_ids: asIntArray(first?.token_ids),
      }),
    );
    const logprobs = asRecord(first?.logprobs);
    if (logprobs && options.captureContent) {
      bag.merge(logprobsAttributes({ content: legacyLogprobsAsChat(logprobs) }));
    }
    return [];
  },

  responseFailure: () => undefined,

  createAccumulator: () => new CompletionStreamAccumulator(),
};

/**
 * Converts legacy logprobs (`tokens[]`, `token_logprobs[]`, `top_logprobs[]` of `{token: logprob}` maps)
 * into the chat layout (`[{token, logprob, bytes, top_logprobs: [{token, logprob, bytes}]}]`) that
 * `logprobs.content` carries for chat spans, so readers handle one shape.
 */
export function legacyLogprobsAsChat(logprobs: JsonRecord): JsonRecord[] {
  const values = asArray(logprobs.token_logprobs);
  const tops = asArray(logprobs.top_logprobs);
  return asArray(logprobs.tokens).map((token, j) => ({
    token: asString(token) ?? String(token),
    logprob: asNumber(values[j]) ?? null,
    bytes: null,
    top_logprobs: Object.entries(asRecord(tops[j]) ?? {}).map(([alt, logprob]) => ({
      token: alt,
      logprob: asNumber(logprob) ?? null,
      bytes: null,
    })),
  }));
}

const LOGPROBS_INCLUDE = 'message.output_text.logprobs';

/**
 * `client.responses.create` → span `openai.responses.create`, written in the chat layout: `instructions`
 * and `input` become `gen_ai.prompt.N.*` (function calls / outputs as assistant tool calls / tool
 * messages), and the output items one assistant completion `gen_ai.completion.0.*`.
 */
export const responsesApi: OpenAIApiEndpoint = {
  kind: 'responses',
  path: '/responses',
  spanName: LlmCallSpanNames.RESPONSES,

  augmentBody(body, request) {
    let out = withDefaults(body, tokenIdDefaults(request));
    if (request.requestLogprobs !== false) {
      const include = asArray(body.include);
      if (!include.includes(LOGPROBS_INCLUDE))
        out = { ...out, include: [...include, LOGPROBS_INCLUDE] };
      if (typeof request.requestLogprobs === 'number') {
        out = withDefaults(out, { top_logprobs: request.requestLogprobs });
      }
    }
    return out;
  },

  requestAttributes(body, options, bag) {
    bag.merge(
      requestAttributes({
        ...commonRequestParameters(body, 'chat', body.max_output_tokens),
        top_logprobs: body.top_logprobs,
      }),
    );
    bag.merge(promptAttributes(responsesPromptMessages(body), options));
    bag.merge(toolDefinitionsAttributes(body));
  },

  responseAttributes(response, options, bag) {
    bag.merge(responseMetadataAttributes(response));
    const output = readResponsesOutput(response);
    bag.merge(completionAttributes(0, responsesCompletion(response, output), options));
    bag.merge(responsesTokenAttributes(response, output, options));
    return output.toolCalls;
  },

  responseFailure(response) {
    if (response.status !== 'failed') return undefined;
    const error = asRecord(response.error);
    return asString(error?.message) ?? 'response failed';
  },

  createAccumulator: () => new ResponsesStreamAccumulator(),
};

/** `instructions` + `input` as chat messages (consecutive function calls merge into one assistant turn). */
function responsesPromptMessages(body: JsonRecord): JsonRecord[] {
  const messages: JsonRecord[] = [];
  if (typeof body.instructions === 'string') {
    messages.push({ role: 'system', content: body.instructions });
  }
  if (typeof body.input === 'string') {
    messages.push({ role: 'user', content: body.input });
    return messages;
  }
  for (const value of asArray(body.input)) {
    const item = asRecord(value);
    if (!item) continue;
    const type = asString(item.type) ?? 'message';
    if (type === 'message') {
      messages.push({ role: item.role, content: item.content });
    } else if (type === 'function_call' || type === 'custom_tool_call') {
      const call = {
        id: asString(item.call_id) ?? asString(item.id),
        function: { name: item.name, arguments: item.arguments ?? item.input },
      };
      const last = messages.at(-1);
      if (last?.role === 'assistant' && Array.isArray(last.tool_calls)) last.tool_calls.push(call);
      else messages.push({ role: 'assistant', content: null, tool_calls: [call] });
    } else if (type === 'function_call_output' || type === 'custom_tool_call_output') {
      messages.push({ role: 'tool', tool_call_id: item.call_id, content: item.output });
    }
  }
  return messages;
}

/** The three endpoints by kind. */
export const OPENAI_API_ENDPOINTS: Readonly<Record<OpenAIApiKind, OpenAIApiEndpoint>> =
  Object.freeze({ chat: chatCompletionsApi, completions: completionsApi, responses: responsesApi });
