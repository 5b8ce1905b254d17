import { type Span, spanFromOtel } from '@arclight/core';
import type { DeliveryItem, DeliveryOutcome, SpanDestination } from './destination.js';
import { RateLimitedWarnings, type TracerLogger } from './warnings.js';

export interface InMemorySpanDestinationOptions {
  /** Most spans kept; beyond it the oldest are dropped (counted in `dropped`, with a warning). Default 100,000. */
  maxSpans?: number;
  /** Where the drop warning goes; default `console.warn`, `null` for silence. */
  logger?: TracerLogger | null;
}

export const DEFAULT_MEMORY_DESTINATION_MAX_SPANS = 100_000;

/**
 * Keeps spans in memory only, converted to Arclight spans with per-rollout sequence ids (1, 2, …) — the destination
 * of a tracer without a store, for tests and debugging. Nothing is persisted. Bounded: past `maxSpans` the
 * oldest spans are dropped, so a long-running agent without a store cannot grow without limit.
 */
export class InMemorySpanDestination implements SpanDestination {
  readonly kind = 'memory';
  private written: Span[] = [];
  /** Index of the oldest kept span in `written` (dropped ones before it are compacted away lazily). */
  private head = 0;
  private droppedCount = 0;
  private readonly sequence = new Map<string, number>();
  private readonly maxSpans: number;
  private readonly warnings: RateLimitedWarnings;

  constructor(options: InMemorySpanDestinationOptions = {}) {
    const maxSpans = options.maxSpans ?? DEFAULT_MEMORY_DESTINATION_MAX_SPANS;
    if (!Number.isSafeInteger(maxSpans) || maxSpans <= 0) {
      throw new RangeError(
        `InMemorySpanDestination: maxSpans must be a positive integer, got ${maxSpans}`,
      );
    }
    this.maxSpans = maxSpans;
    this.warnings =
      options.logger === undefined
        ? new RateLimitedWarnings()
        : new RateLimitedWarnings(options.logger);
  }

  /** Spans dropped (oldest first) to stay under `maxSpans`. */
  get dropped(): number {
    return this.droppedCount;
  }

  async write(items: DeliveryItem[]): Promise<DeliveryOutcome[]> {
    for (const item of items) {
      const { rolloutId, attemptId } = item.attribution;
      if (item.sequenceId === undefined) {
        item.sequenceId = (this.sequence.get(rolloutId) ?? 0) + 1;
        this.sequence.set(rolloutId, item.sequenceId);
      }
      const span = spanFromOtel(item.readable, rolloutId, attemptId, item.sequenceId);
      item.stored = span;
      this.written.push(span);
    }
    this.trim();
    return [{ ok: true, items }];
  }

  /** All spans kept, in write order; optionally only those of one rollout (and attempt). */
  spans(rolloutId?: string, attemptId?: string): Span[] {
    const kept = this.head === 0 ? this.written : this.written.slice(this.head);
    return kept.filter(
      (span) =>
        (rolloutId === undefined || span.rollout_id === rolloutId) &&
        (attemptId === undefined || span.attempt_id === attemptId),
    );
  }

  clear(): void {
    this.written = [];
    this.head = 0;
    this.sequence.clear();
  }

  private trim(): void {
    const excess = this.written.length - this.head - this.maxSpans;
    if (excess <= 0) return;
    this.head += excess;
    this.droppedCount += excess;
    this.warnings.warn(
      'memory-destination-full',
      `in-memory span destination is full (maxSpans=${this.maxSpans}): dropped the oldest ${excess} span(s), ` +
        `${this.droppedCount} in total; give the tracer a store to keep every span`,
    );
    if (this.head > this.maxSpans) {
      this.written = this.written.slice(this.head);
      this.head = 0;
    }
  }
}
