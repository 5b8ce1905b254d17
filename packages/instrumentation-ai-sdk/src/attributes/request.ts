import {
  type AttributeBag,
  asArray,
  asNumber,
  asString,
  chatSamplingParameters,
  type JsonRecord,
  promptAttributes,
  readToolDefinitions,
  requestAttributes,
  stopSequences,
  toolDefinitionAttributes,
} from '@arclight/core';
import { toChatMessages } from './model-messages.js';

/** What the request attributes are written from. */
export interface RequestSource {
  /** The provider's wire body, when it is an OpenAI chat request (`messages` array). */
  wireBody?: JsonRecord;
  /** The AI SDK's model-call event (normalized prompt and settings). */
  event: JsonRecord;
  streaming: boolean;
  captureInputs: boolean;
}

/** OpenAI chat tools (`{type:'function', function:{…}}`) or the AI SDK's prepared tools (`{name, inputSchema}`). */
const TOOL_SHAPE = { schemaKeys: ['parameters', 'inputSchema'], customTools: false } as const;

/** `gen_ai.request.*`, `gen_ai.prompt.N.*` and tool definitions of a model call. */
export function setRequestAttributes(bag: AttributeBag, source: RequestSource): void {
  const { wireBody: body, event, captureInputs } = source;
  const common = { type: 'chat', streaming: source.streaming };
  if (body) {
    bag.merge(
      requestAttributes({
        ...common,
        model: asString(body.model) ?? asString(event.modelId),
        max_tokens: body.max_tokens ?? body.max_completion_tokens,
        ...chatSamplingParameters(body),
        stop: nonEmptyStop(body.stop),
        logprobs: body.logprobs,
        top_logprobs: body.top_logprobs,
        return_token_ids: body.return_token_ids,
      }),
    );
    writePromptAndTools(bag, asArray(body.messages), body.tools, captureInputs);
    return;
  }
  bag.merge(
    requestAttributes({
      ...common,
      model: asString(event.modelId),
      max_tokens: asNumber(event.maxOutputTokens),
      temperature: asNumber(event.temperature),
      top_p: asNumber(event.topP),
      top_k: asNumber(event.topK),
      frequency_penalty: asNumber(event.frequencyPenalty),
      presence_penalty: asNumber(event.presencePenalty),
      seed: asNumber(event.seed),
      stop: nonEmptyStop(event.stopSequences),
    }),
  );
  const messages = toChatMessages(event.instructions, event.messages);
  writePromptAndTools(bag, messages, event.tools, captureInputs);
}

function writePromptAndTools(
  bag: AttributeBag,
  messages: readonly unknown[],
  tools: unknown,
  captureInputs: boolean,
): void {
  bag.merge(promptAttributes(messages, { captureContent: captureInputs }));
  const definitions = readToolDefinitions(asArray(tools), TOOL_SHAPE);
  bag.merge(toolDefinitionAttributes(definitions, { details: captureInputs }));
}

function nonEmptyStop(value: unknown): string | string[] | undefined {
  const stop = stopSequences(value);
  return Array.isArray(stop) && stop.length === 0 ? undefined : stop;
}
