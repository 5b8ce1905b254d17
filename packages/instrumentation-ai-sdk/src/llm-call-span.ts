import { LlmCallSpanNames } from '@arclight/core';
import { GEN_AI_SYSTEM_OPENAI, SpanNames } from './attributes/keys.js';
import type { ResolvedOptions } from './options.js';

export interface ModelSpanIdentity {
  /** The span name. */
  name: string;
  /** Whether the span presents itself as an LLM call. */
  counted: boolean;
  /** `gen_ai.system`. */
  system: string;
}

/** The name of a model-call span that is not the LLM call. */
export function uncountedName(operationId: string, streaming: boolean): string {
  return `${operationId}.${streaming ? 'doStream' : 'doGenerate'}`;
}

/** Names a model-call span by the LLM-call rule (see `LlmCallSpanMode`). */
export function modelSpanIdentity(
  provider: string,
  operationId: string,
  streaming: boolean,
  options: ResolvedOptions,
): ModelSpanIdentity {
  const openaiProtocol = options.openaiProtocolProviders.test(provider);
  const system = openaiProtocol ? GEN_AI_SYSTEM_OPENAI : (provider.split('.')[0] ?? provider);
  if (!isCounted(options)) {
    return {
      name: uncountedName(operationId, streaming),
      counted: false,
      system,
    };
  }
  return {
    name: openaiProtocol ? openaiCallName(provider) : SpanNames.CHAT_MODEL,
    counted: true,
    system,
  };
}

/**
 * The LLM-call span name of an OpenAI-protocol provider, by the API it calls (the provider id's last segment,
 * e.g. `openai.responses` for `@ai-sdk/openai`'s default model): the names `@arclight/instrumentation-openai`
 * gives the same calls.
 */
function openaiCallName(provider: string): string {
  if (provider.endsWith('.responses')) return LlmCallSpanNames.RESPONSES;
  if (provider.endsWith('.completion')) return LlmCallSpanNames.COMPLETION;
  return LlmCallSpanNames.CHAT;
}

function isCounted(options: ResolvedOptions): boolean {
  switch (options.llmCallSpan) {
    case 'always':
      return true;
    case 'never':
      return false;
    default:
      // 'auto': counted unless an instrumented client claims the call (see `ModelCallSpan`).
      return true;
  }
}
