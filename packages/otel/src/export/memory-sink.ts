import { type Span, spanFromOtel } from '@arclight/core';
import type { SinkItem, SinkOutcome, SpanSink } from './span-sink.js';

/**
 * Keeps spans in memory only, converted to Arclight spans with per-rollout sequence ids (1, 2, …) — the sink
 * of a tracer without a store, for tests and debugging. Nothing is persisted.
 */
export class InMemorySpanSink implements SpanSink {
  readonly kind = 'memory';
  private readonly written: Span[] = [];
  private readonly sequence = new Map<string, number>();

  async write(items: SinkItem[]): Promise<SinkOutcome[]> {
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
    return [{ ok: true, items }];
  }

  /** All spans written so far, in write order; optionally only those of one rollout (and attempt). */
  spans(rolloutId?: string, attemptId?: string): Span[] {
    return this.written.filter(
      (span) =>
        (rolloutId === undefined || span.rollout_id === rolloutId) &&
        (attemptId === undefined || span.attempt_id === attemptId),
    );
  }

  clear(): void {
    this.written.length = 0;
    this.sequence.clear();
  }
}
