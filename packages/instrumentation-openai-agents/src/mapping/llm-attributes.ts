import {
  type AttributeBag,
  type AttributeRecord,
  asNumber,
  asString,
  chatResponseIdentity,
  GEN_AI_SYSTEM_OPENAI,
  GenAI,
  type GenAIWriteOptions,
  type JsonRecord,
  readUsage,
  requestAttributes,
  responseIdentityAttributes,
  usageAttributes,
} from '@arclight/core';
import { AGENTS_ENCODING } from '../attribute-bag.js';

/** `gen_ai.system`, `gen_ai.request.type`, the model and the sampling settings of a settings record. */
export function modelRequestAttributes(
  model: unknown,
  settings: JsonRecord | undefined,
): AttributeRecord {
  return requestAttributes({
    system: GEN_AI_SYSTEM_OPENAI,
    type: 'chat',
    model: asString(model),
    ...(settings && {
      temperature: asNumber(settings.temperature),
      top_p: asNumber(settings.top_p),
      frequency_penalty: asNumber(settings.frequency_penalty),
      presence_penalty: asNumber(settings.presence_penalty),
      max_tokens:
        asNumber(settings.max_tokens) ??
        asNumber(settings.max_completion_tokens) ??
        asNumber(settings.max_output_tokens),
    }),
  });
}

/** How prompts and completions of Agents SDK spans are written. */
export function writeOptions(captureContent: boolean): GenAIWriteOptions {
  return { captureContent, encoding: AGENTS_ENCODING };
}

/** `gen_ai.response.id|model`; the SDK's placeholder id of streamed completions is not an id. */
export function setResponseIdentity(bag: AttributeBag, response: JsonRecord): void {
  const identity = chatResponseIdentity(response);
  if (identity.id === FAKE_ID) {
    bag.set(GenAI.REQUEST_STREAMING, true);
    identity.id = undefined;
  }
  bag.merge(responseIdentityAttributes(identity));
}

/** Placeholder id the SDK gives the completion it rebuilds from a stream (`FAKE_ID`). */
export const FAKE_ID = 'FAKE_ID';

/**
 * Usage in upstream's names. Accepts Chat (`prompt_tokens`/`completion_tokens`), Responses and the SDK's
 * own span usage (`input_tokens`/`output_tokens`). Returns whether anything was written.
 */
export function setUsage(bag: AttributeBag, usageValue: unknown): boolean {
  const usage = readUsage(usageValue);
  if (!usage) return false;
  const { prompt_tokens: prompt, completion_tokens: completion } = usage;
  if (prompt !== undefined && completion !== undefined) usage.total_tokens ??= prompt + completion;
  bag.merge(usageAttributes(usage));
  return prompt !== undefined || completion !== undefined;
}
