import type { Run } from '@langchain/core/tracers/base';
import type { TracerProvider } from '@opentelemetry/api';

/**
 * Which model runs write the LLM-call span (`openai.chat.completion` for OpenAI-compatible chat models,
 * `langchain.chat_model` otherwise, with `gen_ai.*` attributes and token ids):
 * - `'auto'` (default): decided per call — every model run, unless an instrumented `openai` client (of
 *   `@arclight/instrumentation-openai`) recorded the same call (it claims the call in the run's context): then
 *   that `openai.chat.completion` span is the LLM call and the handler's span becomes a plain
 *   `langchain.chat_model` span without `gen_ai.*`. A ChatOpenAI whose `openai` copy is not instrumented keeps
 *   its own LLM-call span, whatever other copies are;
 * - `'always'`: every model run (you will count OpenAI calls twice if `@arclight/instrumentation-openai` is active);
 * - `'never'`: no model run (you record LLM calls some other way).
 */
export type LlmCallSpans = 'auto' | 'always' | 'never';

export interface ArclightCallbackHandlerOptions {
  /**
   * Where spans are created. With `@arclight/otel` pass `tracer.tracerProvider` so that the rollout
   * attribution of `tracer.traceContext(...)` applies. Default: the global provider.
   */
  tracerProvider?: TracerProvider;
  /** Record inputs, outputs, prompts and completions (default `true`; ids, names and token ids are kept). */
  captureContent?: boolean;
  /** Also write spans for runs tagged `langsmith:hidden` and LangGraph internals (default `false`). */
  includeHidden?: boolean;
  /** See {@link LlmCallSpans} (default `'auto'`). */
  llmCallSpans?: LlmCallSpans;
  /**
   * Make each traced run's span the active OpenTelemetry span while LangChain executes the run's body, so
   * spans created there (`@arclight/instrumentation-openai`'s LLM calls, your own spans, emitters) become its children
   * (default `true`). See the README, "Parenting".
   */
  propagateContext?: boolean;
  /**
   * Let LangChain wait for the handler (default `true`): spans then end before `invoke` returns, so they are
   * inside the `traceContext` that started them. `false` leaves LangChain's background callbacks on; call
   * `awaitAllCallbacks()` from `@langchain/core/callbacks/promises` before the context ends.
   */
  awaitHandlers?: boolean;
  /**
   * The agent name of a run (written as `langchain.chain.type`), or `undefined` for none. Default: LangGraph
   * nodes and graphs and root chains are agents, named by their run name. `isRoot`: the run has no traced
   * parent.
   */
  agentName?: (run: Run, isRoot: boolean) => string | undefined;
}

export interface ResolvedOptions {
  captureContent: boolean;
  includeHidden: boolean;
  llmCallSpans: LlmCallSpans;
  propagateContext: boolean;
}

export function resolveOptions(options: ArclightCallbackHandlerOptions): ResolvedOptions {
  return {
    captureContent: options.captureContent ?? true,
    includeHidden: options.includeHidden ?? false,
    llmCallSpans: options.llmCallSpans ?? 'auto',
    propagateContext: options.propagateContext ?? true,
  };
}
