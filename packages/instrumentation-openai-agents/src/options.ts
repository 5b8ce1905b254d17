import { type TracerProvider, trace } from '@opentelemetry/api';

/** Anything that hands out a tracer provider: a `LightningTracer` from `@arclight/otel`. */
export interface TracerProviderSource {
  readonly tracerProvider: TracerProvider;
}

export interface LightningTracingProcessorOptions {
  /**
   * The `LightningTracer` whose store receives the spans (its `tracerProvider` is used, so spans started
   * inside `tracer.traceContext(...)` belong to that rollout). Default: `tracerProvider`, else the active
   * `LightningTracer` (`getActiveTracer()` of `@arclight/otel`) when a trace starts, else the global provider.
   */
  tracer?: TracerProviderSource;
  /** An OpenTelemetry tracer provider to use instead of a `LightningTracer`. */
  tracerProvider?: TracerProvider;
  /**
   * Whether generation/response spans are the LLM-call spans (named `openai.chat.completion` /
   * `openai.responses.create`, with `gen_ai.*` attributes and token ids). `'auto'` (default): decided per
   * call — yes, unless an instrumented `openai` client (`@arclight/instrumentation-openai`) recorded the same
   * request (it claims the call in the context the SDK calls the model in): then that client span is the LLM
   * call and this one is named `openai_agents.generation` / `openai_agents.response`.
   */
  llmCallSpans?: 'auto' | boolean;
  /** Record prompts, completions and tool inputs/outputs (default true). Token ids are kept either way. */
  captureContent?: boolean;
  /** Write a `tool_call.<name>` child span per tool call of an LLM-call span (default true). */
  toolCallSpans?: boolean;
  /** At most this many SDK spans in flight (started, not ended); the oldest are ended beyond it (5000). */
  maxSpansInFlight?: number;
  /** At most this many SDK traces in flight (1000). */
  maxTracesInFlight?: number;
}

export const DEFAULT_MAX_SPANS_IN_FLIGHT = 5000;
export const DEFAULT_MAX_TRACES_IN_FLIGHT = 1000;

/** Whether model spans may be LLM-call spans (`'auto'`: yes, unless a client claims the call). */
export function llmCallSpansActive(setting: 'auto' | boolean): boolean {
  return setting === 'auto' ? true : setting;
}

/** The provider for a new trace: explicit provider, explicit tracer, the active tracer, the global one. */
export function resolveProvider(
  options: LightningTracingProcessorOptions,
  activeTracer: () => unknown,
): TracerProvider {
  if (options.tracerProvider) return options.tracerProvider;
  if (options.tracer) return options.tracer.tracerProvider;
  const active = activeTracer();
  if (isProviderSource(active)) return active.tracerProvider;
  return trace.getTracerProvider();
}

function isProviderSource(value: unknown): value is TracerProviderSource {
  if (typeof value !== 'object' || value === null || !('tracerProvider' in value)) return false;
  const provider = (value as { tracerProvider?: unknown }).tracerProvider;
  return typeof provider === 'object' && provider !== null && 'getTracer' in provider;
}
