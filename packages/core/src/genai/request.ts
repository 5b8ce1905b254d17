import { AttributeBag, type AttributeEncoding, type AttributeRecord } from './attribute-bag.js';
import type { JsonRecord } from './json-readers.js';
import { GenAI } from './keys.js';

const REQUEST_KEYS = {
  type: GenAI.REQUEST_TYPE,
  system: GenAI.SYSTEM,
  model: GenAI.REQUEST_MODEL,
  max_tokens: GenAI.REQUEST_MAX_TOKENS,
  temperature: GenAI.REQUEST_TEMPERATURE,
  top_p: GenAI.REQUEST_TOP_P,
  top_k: GenAI.REQUEST_TOP_K,
  frequency_penalty: GenAI.REQUEST_FREQUENCY_PENALTY,
  presence_penalty: GenAI.REQUEST_PRESENCE_PENALTY,
  seed: GenAI.REQUEST_SEED,
  n: GenAI.REQUEST_N,
  stop: GenAI.REQUEST_STOP,
  streaming: GenAI.REQUEST_STREAMING,
  logprobs: GenAI.REQUEST_LOGPROBS,
  top_logprobs: GenAI.REQUEST_TOP_LOGPROBS,
  return_token_ids: GenAI.REQUEST_RETURN_TOKEN_IDS,
} as const;

/**
 * The request of an LLM call, each field written as its `gen_ai.system` / `gen_ai.request.*` attribute.
 * Values are written as they are (`null`/`undefined` left out, objects as JSON), in the order the object
 * lists them.
 */
export type LlmRequestParameters = { [K in keyof typeof REQUEST_KEYS]?: unknown };

/** `gen_ai.system`, `gen_ai.request.type` and the `gen_ai.request.*` settings of an LLM call. */
export function requestAttributes(
  parameters: LlmRequestParameters,
  encoding?: AttributeEncoding,
): AttributeRecord {
  const bag = new AttributeBag(encoding);
  for (const [name, value] of Object.entries(parameters)) {
    if (Object.hasOwn(REQUEST_KEYS, name)) {
      bag.set(REQUEST_KEYS[name as keyof typeof REQUEST_KEYS], value);
    }
  }
  return bag.attributes;
}

/** The sampling settings of an OpenAI chat request body, as they are (in `gen_ai.request.*` order). */
export function chatSamplingParameters(body: JsonRecord): LlmRequestParameters {
  return {
    temperature: body.temperature,
    top_p: body.top_p,
    frequency_penalty: body.frequency_penalty,
    presence_penalty: body.presence_penalty,
    seed: body.seed,
    n: body.n,
  };
}

/** A request's `stop`: a string or an array of strings (possibly empty), else undefined. */
export function stopSequences(stop: unknown): string | string[] | undefined {
  if (typeof stop === 'string') return stop;
  if (Array.isArray(stop) && stop.every((s) => typeof s === 'string')) return stop;
  return undefined;
}
