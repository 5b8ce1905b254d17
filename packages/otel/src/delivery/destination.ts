import type { Span } from '@arclight/core';
import type { ReadableSpanLike } from '../otel-types.js';
import type { RolloutAttribution } from '../tracer/trace-scope.js';

/** One finished span on its way to a destination. Destinations may set `sequenceId` (kept across retries) and `stored`. */
export interface DeliveryItem {
  readonly readable: ReadableSpanLike;
  readonly attribution: RolloutAttribution;
  /** A sequence id allocated by an earlier attempt; reused so that a retry does not allocate again. */
  sequenceId?: number;
  /** The span as the destination stored it, when the destination knows (in-process stores, memory). */
  stored?: Span;
}

/** The result of writing some items: all written, or all failed (retryable or not). */
export type DeliveryOutcome =
  | {
      ok: true;
      items: DeliveryItem[] /** Spans the receiver reported as rejected (counted as dropped). */;
      rejected?: number;
    }
  | { ok: false; items: DeliveryItem[]; error: unknown; retryable: boolean };

/**
 * Where finished spans go: an in-process store, a remote store over OTLP, or memory. `write` may split the
 * items (e.g. per rollout) and report one outcome per part — every item in exactly one outcome; it should
 * not throw (a throw counts as a retryable failure of every item). `signal` aborts when the attempt times out.
 */
export interface SpanDestination {
  /** `"store"`, `"otlp"`, `"memory"` or a custom name, for diagnostics. */
  readonly kind: string;
  write(items: DeliveryItem[], signal: AbortSignal): Promise<DeliveryOutcome[]>;
  shutdown?(): Promise<void>;
}

/** Groups items by rollout and attempt, keeping their order. */
export function groupByAttempt(items: readonly DeliveryItem[]): DeliveryItem[][] {
  const groups = new Map<string, DeliveryItem[]>();
  for (const item of items) {
    const key = `${item.attribution.rolloutId}\u0000${item.attribution.attemptId}`;
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return [...groups.values()];
}
