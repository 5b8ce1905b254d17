import { AsyncLocalStorage } from 'node:async_hooks';
import { currentTraceScope } from '@arclight/otel';

/**
 * Rollout attribution across the SDK's processor callbacks. `LightningTracer` attributes an OTel span to
 * the `traceContext` whose async-local scope is current when the span starts. The SDK calls
 * `onTraceStart`/`onSpanStart` synchronously from inside the agent run (`trace.start()`, `span.start()`),
 * so the scope is normally current (also when earlier processors `await`: async context survives awaits);
 * but a callback can also run elsewhere — spans replayed with `dispatchSpan`, spans of a run resumed from
 * saved state, an end or start reached through code that lost the async context. So the processor captures the execution context (Node's
 * `AsyncLocalStorage.snapshot()`) whenever a trace or span starts inside a scope, and creates a span whose
 * callback runs outside any scope inside the context captured for its nearest ancestor.
 */
export interface CapturedAttribution {
  /** The `traceContext` scope that was current (an opaque object), if any. */
  readonly scope: object | undefined;
  /** Runs a function in the execution context captured with that scope. */
  readonly run: (<R>(fn: () => R) => R) | undefined;
}

const NONE: CapturedAttribution = Object.freeze({ scope: undefined, run: undefined });

/** The attribution of the current context; reuses `inherited` when it is the same scope. */
export function captureAttribution(inherited?: CapturedAttribution): CapturedAttribution {
  const scope = currentTraceScope();
  if (!scope) return inherited ?? NONE;
  if (inherited?.scope === scope) return inherited;
  const snapshot = AsyncLocalStorage.snapshot();
  return { scope, run: <R>(fn: () => R): R => snapshot(fn) };
}

/** Runs `fn` here when a scope is current, else in the captured context (when there is one). */
export function runAttributed<R>(captured: CapturedAttribution | undefined, fn: () => R): R {
  if (currentTraceScope() !== undefined || captured?.run === undefined) return fn();
  return captured.run(fn);
}
