import { asArray, asNumber, asRecord, asString, isRecord, type JsonRecord } from '../json.js';
import type { AttributeBag } from './attribute-bag.js';
import { GenAI } from './keys.js';
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

/** `gen_ai.request.*`, `gen_ai.prompt.N.*` and tool definitions of a model call. */
export function setRequestAttributes(bag: AttributeBag, source: RequestSource): void {
  const { wireBody: body, event, captureInputs } = source;
  bag.set(GenAI.REQUEST_TYPE, 'chat');
  bag.set(GenAI.REQUEST_STREAMING, source.streaming);
  if (body) {
    bag.set(GenAI.REQUEST_MODEL, asString(body.model) ?? asString(event.modelId));
    bag.set(GenAI.REQUEST_MAX_TOKENS, body.max_tokens ?? body.max_completion_tokens);
    bag.set(GenAI.REQUEST_TEMPERATURE, body.temperature);
    bag.set(GenAI.REQUEST_TOP_P, body.top_p);
    bag.set(GenAI.REQUEST_FREQUENCY_PENALTY, body.frequency_penalty);
    bag.set(GenAI.REQUEST_PRESENCE_PENALTY, body.presence_penalty);
    bag.set(GenAI.REQUEST_SEED, body.seed);
    bag.set(GenAI.REQUEST_N, body.n);
    setStop(bag, body.stop);
    bag.set(GenAI.REQUEST_LOGPROBS, body.logprobs);
    bag.set(GenAI.REQUEST_TOP_LOGPROBS, body.top_logprobs);
    bag.set(GenAI.REQUEST_RETURN_TOKEN_IDS, body.return_token_ids);
    setPrompt(bag, asArray(body.messages), captureInputs);
    setToolDefinitions(bag, body.tools, captureInputs);
    return;
  }
  bag.set(GenAI.REQUEST_MODEL, asString(event.modelId));
  bag.set(GenAI.REQUEST_MAX_TOKENS, asNumber(event.maxOutputTokens));
  bag.set(GenAI.REQUEST_TEMPERATURE, asNumber(event.temperature));
  bag.set(GenAI.REQUEST_TOP_P, asNumber(event.topP));
  bag.set(GenAI.REQUEST_TOP_K, asNumber(event.topK));
  bag.set(GenAI.REQUEST_FREQUENCY_PENALTY, asNumber(event.frequencyPenalty));
  bag.set(GenAI.REQUEST_PRESENCE_PENALTY, asNumber(event.presencePenalty));
  bag.set(GenAI.REQUEST_SEED, asNumber(event.seed));
  setStop(bag, event.stopSequences);
  setPrompt(bag, toChatMessages(event.instructions, event.messages), captureInputs);
  setToolDefinitions(bag, event.tools, captureInputs);
}

function setStop(bag: AttributeBag, stop: unknown): void {
  if (typeof stop === 'string') bag.set(GenAI.REQUEST_STOP, stop);
  else if (Array.isArray(stop) && stop.length > 0 && stop.every((s) => typeof s === 'string')) {
    bag.set(GenAI.REQUEST_STOP, stop);
  }
}

function setPrompt(bag: AttributeBag, messages: readonly unknown[], captureInputs: boolean): void {
  messages.forEach((message, i) => {
    if (isRecord(message)) setPromptMessage(bag, i, message, captureInputs);
  });
}

/** Writes one prompt message at `gen_ai.prompt.{index}` (multimodal content as a JSON string). */
function setPromptMessage(
  bag: AttributeBag,
  index: number,
  message: JsonRecord,
  captureInputs: boolean,
): void {
  const prefix = `${GenAI.PROMPT}.${index}`;
  bag.set(`${prefix}.role`, asString(message.role));
  if (captureInputs) {
    const content = message.content;
    if (typeof content === 'string') bag.set(`${prefix}.content`, content);
    else if (content !== undefined && content !== null) bag.setJson(`${prefix}.content`, content);
  }
  bag.set(`${prefix}.tool_call_id`, asString(message.tool_call_id));
  asArray(message.tool_calls).forEach((value, j) => {
    const call = asRecord(value);
    if (!call) return;
    const fn = asRecord(call.function) ?? call;
    bag.set(`${prefix}.tool_calls.${j}.id`, asString(call.id));
    bag.set(`${prefix}.tool_calls.${j}.name`, asString(fn.name));
    if (captureInputs) bag.set(`${prefix}.tool_calls.${j}.arguments`, asString(fn.arguments));
  });
}

/**
 * Tool definitions as `gen_ai.request.functions.N.name|description|parameters`, from OpenAI chat tools
 * (`{type:'function', function:{…}}`) or the AI SDK's prepared tools (`{type:'function', name, inputSchema}`).
 */
function setToolDefinitions(bag: AttributeBag, tools: unknown, captureInputs: boolean): void {
  let index = 0;
  for (const item of asArray(tools)) {
    const tool = asRecord(item);
    if (!tool) continue;
    const fn = asRecord(tool.function) ?? tool;
    const name = asString(fn.name);
    if (name === undefined) continue;
    const prefix = `${GenAI.REQUEST_FUNCTIONS}.${index}`;
    bag.set(`${prefix}.name`, name);
    if (captureInputs) {
      bag.set(`${prefix}.description`, asString(fn.description));
      bag.setJson(`${prefix}.parameters`, fn.parameters ?? fn.inputSchema);
    }
    index += 1;
  }
}
