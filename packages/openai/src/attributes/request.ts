import { asArray, asRecord, asString, isRecord, type JsonRecord } from '../json.js';
import type { AttributeBag } from './attribute-bag.js';
import { GEN_AI_SYSTEM_VALUE, GenAI } from './keys.js';

/** `gen_ai.system`, `gen_ai.request.type` and the sampling parameters shared by all endpoints. */
export function setCommonRequestAttributes(
  bag: AttributeBag,
  body: JsonRecord,
  requestType: 'chat' | 'completion',
  maxTokens: unknown,
): void {
  bag.set(GenAI.REQUEST_TYPE, requestType);
  bag.set(GenAI.SYSTEM, GEN_AI_SYSTEM_VALUE);
  bag.set(GenAI.REQUEST_MODEL, asString(body.model));
  bag.set(GenAI.REQUEST_MAX_TOKENS, maxTokens);
  bag.set(GenAI.REQUEST_TEMPERATURE, body.temperature);
  bag.set(GenAI.REQUEST_TOP_P, body.top_p);
  bag.set(GenAI.REQUEST_FREQUENCY_PENALTY, body.frequency_penalty);
  bag.set(GenAI.REQUEST_PRESENCE_PENALTY, body.presence_penalty);
  bag.set(GenAI.REQUEST_SEED, body.seed);
  bag.set(GenAI.REQUEST_N, body.n);
  const stop = body.stop;
  if (
    typeof stop === 'string' ||
    (Array.isArray(stop) && stop.every((s) => typeof s === 'string'))
  ) {
    bag.set(GenAI.REQUEST_STOP, stop);
  }
  bag.set(GenAI.REQUEST_STREAMING, body.stream === true);
  bag.set(GenAI.REQUEST_RETURN_TOKEN_IDS, body.return_token_ids);
}

/**
 * Tool definitions as `gen_ai.request.functions.N.name|description|parameters` (parameters JSON-encoded).
 * Accepts Chat tools (`{type:'function', function:{…}}`), legacy `functions`, custom tools and the flat
 * Responses-API shape (`{type:'function', name, …}`).
 */
export function setToolDefinitions(bag: AttributeBag, body: JsonRecord): void {
  const definitions = [...asArray(body.functions), ...asArray(body.tools)];
  let index = 0;
  for (const item of definitions) {
    const tool = asRecord(item);
    if (!tool) continue;
    const fn = asRecord(tool.function) ?? asRecord(tool.custom) ?? tool;
    const name = asString(fn.name);
    if (name === undefined) continue;
    const prefix = `${GenAI.REQUEST_FUNCTIONS}.${index}`;
    bag.set(`${prefix}.name`, name);
    bag.set(`${prefix}.description`, asString(fn.description));
    bag.setJson(`${prefix}.parameters`, fn.parameters ?? fn.format);
    index += 1;
  }
}

/** Writes one prompt message at `gen_ai.prompt.{index}`. */
export function setPromptMessage(
  bag: AttributeBag,
  index: number,
  message: JsonRecord,
  captureContent: boolean,
): void {
  const prefix = `${GenAI.PROMPT}.${index}`;
  bag.set(`${prefix}.role`, asString(message.role));
  if (captureContent) {
    const content = message.content;
    // Multimodal content stays a JSON string, so image urls remain recoverable (upstream parses it back).
    if (typeof content === 'string') bag.set(`${prefix}.content`, content);
    else if (content !== undefined && content !== null) bag.setJson(`${prefix}.content`, content);
  }
  bag.set(`${prefix}.tool_call_id`, asString(message.tool_call_id));
  const calls = asArray(message.tool_calls);
  calls.forEach((call, j) => {
    if (!isRecord(call)) return;
    const fn = asRecord(call.function) ?? asRecord(call.custom) ?? call;
    bag.set(`${prefix}.tool_calls.${j}.id`, asString(call.id));
    bag.set(`${prefix}.tool_calls.${j}.name`, asString(fn.name));
    if (captureContent) {
      bag.set(`${prefix}.tool_calls.${j}.arguments`, asString(fn.arguments) ?? asString(fn.input));
    }
  });
  const legacyCall = asRecord(message.function_call);
  if (legacyCall && calls.length === 0) {
    bag.set(`${prefix}.tool_calls.0.name`, asString(legacyCall.name));
    if (captureContent) bag.set(`${prefix}.tool_calls.0.arguments`, asString(legacyCall.arguments));
  }
}
