import { AsyncLocalStorage } from 'node:async_hooks';
import type { Span } from '@arclight/core';
import type { ReadableSpanLike } from '../otel-types.js';

/** The rollout and attempt that spans started inside a `traceContext` belong to. */
export interface RolloutAttribution {
  rolloutId: string;
  attemptId: string;
}

/** One finished span of a scope: the SDK span and, once a destination has written it, the stored span. */
export interface ScopeRecord {
  readonly readable: ReadableSpanLike;
  stored?: Span;
}

/**
 * The state of one `traceContext` call. Every span started while the scope is the current async context is
 * attributed to it (at span start); its finished spans are recorded here for `getLastTrace()`, and the scope
 * counts how many of them are still waiting for the destination so that the context can wait for them at its end.
 */
export class TraceScope {
  readonly records: ScopeRecord[] = [];
  /** Finished spans of the scope that are LLM calls. */
  llmCallSpans = 0;
  /** Requests to an LLM API made in the scope (seen on the wire), and the first one's URL. */
  readonly llmRequests = { count: 0, first: '' };
  private pending = 0;
  private waiters: Array<() => void> = [];

  constructor(
    /** The tracer that opened the scope; other tracers' processors ignore it. */
    readonly owner: object,
    /** `null` for a context without rollout ids: spans are recorded but never exported (upstream). */
    readonly attribution: RolloutAttribution | null,
  ) {}

  record(readable: ReadableSpanLike): ScopeRecord {
    const record: ScopeRecord = { readable };
    this.records.push(record);
    return record;
  }

  noteLlmRequest(url: string): void {
    if (this.llmRequests.count === 0) this.llmRequests.first = url;
    this.llmRequests.count += 1;
  }

  /** A span of this scope entered the delivery queue. */
  addPending(): void {
    this.pending += 1;
  }

  /** A span of this scope was written or dropped. */
  settle(): void {
    this.pending = Math.max(0, this.pending - 1);
    if (this.pending === 0) {
      const waiters = this.waiters;
      this.waiters = [];
      for (const wake of waiters) wake();
    }
  }

  get pendingCount(): number {
    return this.pending;
  }

  /** Resolves once no span of this scope is waiting for the destination. */
  whenSettled(): Promise<void> {
    if (this.pending === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }
}

const storage = new AsyncLocalStorage<TraceScope>();

/** The scope of the innermost `traceContext` the caller runs in, if any. */
export function currentScope(): TraceScope | undefined {
  return storage.getStore();
}

/** Runs `fn` with `scope` as the current scope (across awaits, timers and callbacks started inside). */
export function runInScope<T>(scope: TraceScope, fn: () => T): T {
  return storage.run(scope, fn);
}
