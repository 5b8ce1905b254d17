import type { Tracer } from '@opentelemetry/api';

/**
 * Where spans go: a `LightningTracer` from `@arclight/otel` (so `traceContext` attributes them to rollouts),
 * or any OpenTelemetry `TracerProvider`.
 */
export interface TracerSource {
  getTracer(name: string, version?: string): Tracer;
}

/**
 * Which span of a model call is the LLM-call span the adapter counts (`openai.chat.completion`):
 *
 * - `'auto'` (default): this integration's model span — unless `@arclight/instrumentation-openai` is active
 *   (`isInstrumented('openai')`) and the model's provider matches `openaiClientProviders`, i.e. it sends its
 *   requests through the instrumented `openai` client, whose nested span is then the counted one. The AI SDK's
 *   own providers (`@ai-sdk/openai`, `@ai-sdk/openai-compatible`, …) call `fetch` themselves, so
 *   `@arclight/instrumentation-openai` never sees their requests.
 * - `'always'`: always this integration's span.
 * - `'never'`: never; the model span is named `<operation>.doGenerate` / `.doStream` (e.g. for a custom
 *   provider built on an instrumented client).
 */
export type LlmCallSpanMode = 'auto' | 'always' | 'never';

export interface ArclightTelemetryOptions {
  /** `agent.name` of the operation spans, which attributes the LLM calls under them. Default: `functionId`. */
  agentName?: string;
  /** See {@link LlmCallSpanMode}. */
  llmCallSpan?: LlmCallSpanMode;
  /** Provider ids whose models call the `openai` npm client (used by `llmCallSpan: 'auto'`). Default: none. */
  openaiClientProviders?: RegExp;
  /**
   * Provider ids that speak OpenAI's protocol; their counted model spans are named `openai.chat.completion`,
   * others `ai.chat_model` (add it to the adapter's `llmCallMatch`).
   * Default: `openai.*`, `azure.*` and every `<name>.chat|completion|responses` (OpenAI-compatible providers).
   */
  openaiProtocolProviders?: RegExp;
  /** The `ai` version to record for. Default: the installed `ai` (its `package.json`). For tests. */
  aiVersion?: string;
  /** One `tool_call.<name>` child span per tool call a model asked for (AgentOps' layout). Default true. */
  toolCallSpans?: boolean;
}

export interface ResolvedOptions {
  readonly agentName: string | undefined;
  readonly llmCallSpan: LlmCallSpanMode;
  readonly openaiClientProviders: RegExp | undefined;
  readonly openaiProtocolProviders: RegExp;
  readonly toolCallSpans: boolean;
}

const OPENAI_PROTOCOL_PROVIDERS = /^(openai|azure)(\.|$)|\.(chat|completion|responses)$/;

export function resolveOptions(options: ArclightTelemetryOptions = {}): ResolvedOptions {
  return {
    agentName: options.agentName,
    llmCallSpan: options.llmCallSpan ?? 'auto',
    openaiClientProviders: options.openaiClientProviders,
    openaiProtocolProviders: options.openaiProtocolProviders ?? OPENAI_PROTOCOL_PROVIDERS,
    toolCallSpans: options.toolCallSpans !== false,
  };
}
