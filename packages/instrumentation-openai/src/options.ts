import type { TracerProvider } from '@opentelemetry/api';

/** Options of {@link instrumentOpenAI} and `OpenAIInstrumentation`. */
export interface OpenAIInstrumentationOptions {
  /** Provider of the tracer that creates the spans (e.g. `LightningTracer.tracerProvider`); default: global. */
  tracerProvider?: TracerProvider;
  /**
   * Adds `return_token_ids: true` to outgoing chat, responses and legacy completion requests (vLLM >= 0.10.2
   * then returns `prompt_token_ids` and `token_ids`). `'auto'`: for every client whose `baseURL` is not
   * OpenAI's own API (which rejects the field). An explicit value in the request wins. Default false.
   */
  requestTokenIds?: boolean | 'auto';
  /**
   * Requests logprobs: `true` adds `logprobs: true` (chat) / `logprobs: 0` (legacy completions); a number `n`
   * also asks for `n` alternatives (`top_logprobs: n`; legacy `logprobs: n`). Explicit request values win.
   */
  requestLogprobs?: boolean | number;
  /** Record prompt and completion text, tool-call arguments and logprobs. Default true. */
  captureContent?: boolean;
  /**
   * Write one child span `tool_call.<name>` per tool call in a completion (the AgentOps layout, from which
   * upstream's `TraceToMessages` rebuilds assistant tool calls). Default true.
   */
  toolCallSpans?: boolean;
}

export interface ResolvedOptions {
  readonly requestTokenIds: boolean;
  /** `requestTokenIds: 'auto'`: decided per client by its `baseURL` ({@link forClient}). */
  readonly autoTokenIds: boolean;
  readonly requestLogprobs: boolean | number;
  readonly captureContent: boolean;
  readonly toolCallSpans: boolean;
}

export function resolveOptions(options: OpenAIInstrumentationOptions = {}): ResolvedOptions {
  const logprobs = options.requestLogprobs;
  return {
    requestTokenIds: options.requestTokenIds === true,
    autoTokenIds: options.requestTokenIds === 'auto',
    requestLogprobs:
      typeof logprobs === 'number' && Number.isInteger(logprobs) && logprobs >= 0
        ? logprobs
        : logprobs === true,
    captureContent: options.captureContent !== false,
    toolCallSpans: options.toolCallSpans !== false,
  };
}

/** Hosts that reject `return_token_ids` (OpenAI's own API). */
const OPENAI_PLATFORM = /(^|\.)openai\.com$/i;

/** The options for one call of a client with `baseURL`: resolves `requestTokenIds: 'auto'`. */
export function forClient(options: ResolvedOptions, baseURL: unknown): ResolvedOptions {
  if (!options.autoTokenIds) return options;
  let platform = typeof baseURL !== 'string';
  if (typeof baseURL === 'string') {
    try {
      platform = OPENAI_PLATFORM.test(new URL(baseURL).hostname);
    } catch {
      platform = true;
    }
  }
  return { ...options, requestTokenIds: !platform };
}
