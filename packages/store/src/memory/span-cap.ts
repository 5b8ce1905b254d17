import { type Span, StoreError } from '@arclight/core';

/**
 * A bound on the spans the in-memory store holds. When an insert would pass it, the spans of *finished*
 * rollouts (succeeded, failed, cancelled) are evicted, oldest first (by the arrival of their first span),
 * until the store is back under `safeFraction` of the cap; rollout, attempt and worker records are kept.
 * Reading the spans of an evicted rollout is a 410 ({@link SpansEvictedError}). When the spans of unfinished
 * rollouts alone fill the cap, the insert is refused with a 507 ({@link StoreFullError}).
 */
export interface SpanCapOptions {
  /** Most estimated span bytes held (about the length of the spans' JSON). */
  maxSpanBytes?: number;
  /** Most spans held. */
  maxSpans?: number;
  /** Eviction frees down to this fraction of the cap, so it runs once per many inserts. Default 0.9. */
  safeFraction?: number;
}

/** 410: the spans asked for were evicted to keep the in-memory store under its cap. */
export class SpansEvictedError extends StoreError {
  override readonly status = 410;
}

/** 507: the in-memory store is at its cap and nothing can be evicted (every held span is of a running rollout). */
export class StoreFullError extends StoreError {
  override readonly status = 507;
}

export interface SpanCapLimits {
  maxSpanBytes: number;
  maxSpans: number;
  safeFraction: number;
}

export function resolveSpanCap(options: SpanCapOptions): SpanCapLimits | undefined {
  const { maxSpanBytes, maxSpans } = options;
  if (maxSpanBytes === undefined && maxSpans === undefined) return undefined;
  for (const [name, value] of [
    ['maxSpanBytes', maxSpanBytes],
    ['maxSpans', maxSpans],
  ] as const) {
    if (value !== undefined && (!Number.isSafeInteger(value) || value <= 0)) {
      throw new StoreError(
        `MemoryBackend: ${name} must be a positive integer, got ${String(value)}`,
      );
    }
  }
  const safeFraction = options.safeFraction ?? 0.9;
  if (!(safeFraction > 0 && safeFraction <= 1)) {
    throw new StoreError(
      `MemoryBackend: safeFraction must be in (0, 1], got ${String(safeFraction)}`,
    );
  }
  return {
    maxSpanBytes: maxSpanBytes ?? Number.POSITIVE_INFINITY,
    maxSpans: maxSpans ?? Number.POSITIVE_INFINITY,
    safeFraction,
  };
}

/** What the cap needs from the backend. */
export interface SpanCapHost {
  readonly spanCount: number;
  readonly spanBytes: number;
  /** Rollouts holding spans, oldest first. */
  rolloutIdsWithSpans(): Iterable<string>;
  isFinished(rolloutId: string): boolean;
  evict(rolloutId: string): void;
  estimate(span: Span): number;
}

/** Makes room for `incoming` spans, evicting finished rollouts' spans; throws StoreFullError if it cannot. */
export function makeRoom(cap: SpanCapLimits, host: SpanCapHost, incoming: Span[]): number {
  let bytes = 0;
  for (const span of incoming) bytes += host.estimate(span);
  const fits = () =>
    host.spanCount + incoming.length <= cap.maxSpans && host.spanBytes + bytes <= cap.maxSpanBytes;
  if (fits()) return 0;
  const protectedIds = new Set(incoming.map((span) => span.rollout_id));
  const safeSpans = cap.maxSpans * cap.safeFraction - incoming.length;
  const safeBytes = cap.maxSpanBytes * cap.safeFraction - bytes;
  const victims: string[] = [];
  for (const rolloutId of host.rolloutIdsWithSpans()) {
    if (protectedIds.has(rolloutId) || !host.isFinished(rolloutId)) continue;
    victims.push(rolloutId);
  }
  let evicted = 0;
  for (const rolloutId of victims) {
    if (host.spanCount <= safeSpans && host.spanBytes <= safeBytes) break;
    host.evict(rolloutId);
    evicted++;
  }
  if (!fits()) {
    throw new StoreFullError(
      `In-memory store is full: ${host.spanCount} spans (${host.spanBytes} bytes) of unfinished rollouts ` +
        `fill its cap (maxSpans ${cap.maxSpans}, maxSpanBytes ${cap.maxSpanBytes}); finish rollouts, raise ` +
        'the cap (--memory-cap) or use the sqlite backend',
    );
  }
  return evicted;
}
