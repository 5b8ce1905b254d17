import { asRecord } from '@arclight/core';
import { context, type Span, trace } from '@opentelemetry/api';
import { safely } from './safely.js';

/**
 * The span of every run being traced (by any handler of any copy of this package), by LangChain run id.
 * Hidden runs map to the span of their nearest traced ancestor.
 */
const REGISTRY = Symbol.for('arclight.langchain.run-spans');
/** `@langchain/core` keeps its AsyncLocalStorage here, shared by its CJS and ESM builds. */
const LANGCHAIN_ALS = Symbol.for('ls:tracing_async_local_storage');
/** Key under which `runWithConfig` stores the runnable config in the store's `extra`. */
const CHILD_CONFIG = Symbol.for('lc:child_config');
const BRIDGED = Symbol.for('arclight.langchain.context-bridge');

type Registry = Map<string, Span>;

export function runSpans(): Registry {
  const holder = globalThis as typeof globalThis & { [REGISTRY]?: Registry };
  holder[REGISTRY] ??= new Map();
  return holder[REGISTRY];
}

interface StorageLike {
  run: (store: unknown, callback: (...args: unknown[]) => unknown, ...args: unknown[]) => unknown;
  [BRIDGED]?: true;
}

/**
 * Makes OpenTelemetry follow LangChain's run tree. LangChain executes each runnable's body inside
 * `AsyncLocalStorage.run(store, …)` (its `runWithConfig`), where the store holds the runnable's config and
 * `config.callbacks.getParentRunId()` is the run being executed. The bridge wraps that storage's `run` so the
 * body also runs with the run's span as OpenTelemetry's active span: spans started inside (an instrumented
 * `openai` client, your own spans) become its children. Installed once per process; returns whether it is.
 */
export function installContextBridge(): boolean {
  const storage = (globalThis as Record<symbol, unknown>)[LANGCHAIN_ALS] as StorageLike | undefined;
  if (!storage || typeof storage.run !== 'function') return false;
  if (storage[BRIDGED]) return true;
  const originalRun = storage.run;
  const bridgedRun: StorageLike['run'] = function (this: unknown, store, callback, ...args) {
    const span = safely('context bridge lookup', () => spanOfStore(store), undefined);
    if (!span) return originalRun.call(this, store, callback, ...args);
    return context.with(trace.setSpan(context.active(), span), () =>
      originalRun.call(this, store, callback, ...args),
    );
  };
  Object.defineProperty(storage, 'run', { value: bridgedRun, configurable: true, writable: true });
  Object.defineProperty(storage, BRIDGED, { value: true, configurable: true });
  return true;
}

function spanOfStore(store: unknown): Span | undefined {
  const extra = asRecord(asRecord(store)?.extra) as Record<symbol, unknown> | undefined;
  const config = extra?.[CHILD_CONFIG];
  const callbacks = asRecord(asRecord(config)?.callbacks) as
    | { getParentRunId?: () => unknown }
    | undefined;
  if (typeof callbacks?.getParentRunId !== 'function') return undefined;
  const runId = callbacks.getParentRunId();
  return typeof runId === 'string' ? runSpans().get(runId) : undefined;
}
