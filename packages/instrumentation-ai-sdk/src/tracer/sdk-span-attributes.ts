import { asArray, asNumber, asRecord, asString, type JsonRecord } from '@arclight/core';
import type { Attributes } from '@opentelemetry/api';
import type { ModelCallOutcome } from '../attributes/response.js';
import { parseJsonRecord } from '../json.js';
import { finishReasonOf, readProviderMetadata, toolCallOf } from '../spans/model-call-outcome.js';

/**
 * Readers for the OpenTelemetry attributes `ai` 5 and 6 write on their own spans (`experimental_telemetry`):
 * the model-call spans (`ai.generateText.doGenerate`, `ai.streamText.doStream`, …) carry the prompt the
 * provider received as JSON text (`ai.prompt.messages`, `ai.prompt.tools`) and the result as `ai.response.*`,
 * `ai.usage.*` and `ai.response.providerMetadata` (JSON text; where `withArclight` reports token ids).
 */

/** A model-call span name (`<operation>.doGenerate` / `.doStream`) → its operation and whether it streams. */
export function modelCallOfSpanName(
  name: string,
): { operationId: string; streaming: boolean } | undefined {
  const match = /^(ai\.\w+)\.(doGenerate|doStream)$/.exec(name);
  if (!match) return undefined;
  return { operationId: match[1] as string, streaming: match[2] === 'doStream' };
}

/** The model-call event `ModelCallSpan` reads (provider, model, prompt, tools, settings) from span attributes. */
export function modelCallEvent(
  attributes: Attributes,
  recording: { recordInputs: boolean; recordOutputs: boolean },
): JsonRecord {
  const parsedTools = asArray(attributes['ai.prompt.tools']).map((tool) =>
    typeof tool === 'string' ? parseJsonRecord(tool) : tool,
  );
  return {
    provider: asString(attributes['ai.model.provider']),
    modelId: asString(attributes['ai.model.id']),
    messages: parseJson(attributes['ai.prompt.messages']),
    tools: parsedTools.filter(Boolean),
    maxOutputTokens: attributes['gen_ai.request.max_tokens'],
    temperature: attributes['gen_ai.request.temperature'],
    topP: attributes['gen_ai.request.top_p'],
    topK: attributes['gen_ai.request.top_k'],
    frequencyPenalty: attributes['gen_ai.request.frequency_penalty'],
    presencePenalty: attributes['gen_ai.request.presence_penalty'],
    stopSequences: attributes['gen_ai.request.stop_sequences'],
    recordInputs: recording.recordInputs,
    recordOutputs: recording.recordOutputs,
  };
}

/** What the model call produced, from the attributes the SDK set when it ended. */
export function modelCallOutcome(attributes: Attributes): ModelCallOutcome {
  const outcome: ModelCallOutcome = {
    text: asString(attributes['ai.response.text']) ?? '',
    toolCalls: asArray(parseJson(attributes['ai.response.toolCalls'])).flatMap((value) => {
      const part = asRecord(value);
      return part ? [toolCallOf(part)] : [];
    }),
    finishReason: finishReasonOf(attributes['ai.response.finishReason']),
    responseId: asString(attributes['ai.response.id']),
    responseModel: asString(attributes['ai.response.model']),
  };
  // `ai` 5: promptTokens/completionTokens (generate) or inputTokens/outputTokens (stream); `ai` 6: the latter.
  const prompt =
    asNumber(attributes['ai.usage.inputTokens']) ?? asNumber(attributes['ai.usage.promptTokens']);
  const completion =
    asNumber(attributes['ai.usage.outputTokens']) ??
    asNumber(attributes['ai.usage.completionTokens']);
  if (prompt !== undefined || completion !== undefined) {
    outcome.usage = {
      prompt_tokens: prompt,
      completion_tokens: completion,
      total_tokens:
        asNumber(attributes['ai.usage.totalTokens']) ??
        (prompt !== undefined && completion !== undefined ? prompt + completion : undefined),
      reasoning_tokens: asNumber(attributes['ai.usage.reasoningTokens']),
      cache_read_input_tokens: asNumber(attributes['ai.usage.cachedInputTokens']),
    };
  }
  readProviderMetadata(outcome, parseJson(attributes['ai.response.providerMetadata']));
  return outcome;
}

function parseJson(value: unknown): unknown {
  if (typeof value !== 'string') return undefined;
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
}
