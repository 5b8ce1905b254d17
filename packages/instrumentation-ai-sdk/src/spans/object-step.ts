import { asRecord, asString, type JsonRecord } from '@arclight/core';
import type { ModelCallOutcome } from '../attributes/response.js';
import { parseJsonRecord } from '../json.js';
import {
  finishReasonOf,
  readProviderMetadata,
  readResponseBody,
  usageOf,
} from './model-call-outcome.js';

/** The outcome of a `generateObject` / `streamObject` model call, from its `onObjectStepEnd` event. */
export function objectStepOutcome(event: JsonRecord): ModelCallOutcome {
  const response = asRecord(event.response);
  const outcome: ModelCallOutcome = {
    text: asString(event.objectText) ?? '',
    toolCalls: [],
    finishReason: finishReasonOf(event.rawFinishReason ?? event.finishReason),
    usage: usageOf(event.usage),
    responseId: asString(response?.id),
    responseModel: asString(response?.modelId),
  };
  const body = parseJsonRecord(response?.body);
  if (body) readResponseBody(outcome, body);
  readProviderMetadata(outcome, event.providerMetadata);
  return outcome;
}
