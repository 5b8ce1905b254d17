import type { Span } from '@arclight/core';
import type { UndoJournal } from './undo-journal.js';

interface RolloutSpans {
  /** Every span of the rollout in insertion order. */
  all: Span[];
  /** attempt_id → (span_id → span), each in insertion order. */
  byAttempt: Map<string, Map<string, Span>>;
}

export type SpanSizeEstimator = (span: Span) => number;

/**
 * Approximate size: about the length of the span's JSON text, computed by walking the value (string
 * lengths are O(1), so large attributes cost nothing extra) instead of serializing it.
 */
export const estimateSpanBytes: SpanSizeEstimator = (span) => jsonLength(span, 0);

/** Nesting deeper than this is not counted (guards against cyclic values). */
const MAX_DEPTH = 32;

function jsonLength(value: unknown, depth: number): number {
  switch (typeof value) {
    case 'string':
      return value.length + 2;
    case 'number':
      return 8;
    case 'boolean':
      return 5;
    case 'object': {
      if (value === null) return 4;
      if (depth >= MAX_DEPTH) return 2;
      let size = 2;
      if (Array.isArray(value)) {
        for (const item of value) size += jsonLength(item, depth + 1) + 1;
        return size;
      }
      for (const key of Object.keys(value)) {
        size += key.length + 4 + jsonLength((value as Record<string, unknown>)[key], depth + 1);
      }
      return size;
    }
    default:
      return 0;
  }
}

/**
 * Spans indexed by rollout and attempt; a rollout's spans are found without scanning other rollouts. The
 * estimated bytes of newly inserted spans are added up when the total is first read (statistics, the span
 * cap, eviction), not on the insert path: an uncapped store whose statistics nobody reads never walks a span.
 * (Only with the default estimator, which cannot fail; a custom one runs on insert, where its errors belong.)
 */
export class SpanTable {
  private readonly byRollout = new Map<string, RolloutSpans>();
  private total = 0;
  /** Estimated bytes of the stored spans, except those in `unsized`. */
  private totalBytes = 0;
  /** Stored spans whose estimate is not yet in `totalBytes`, in insertion order. */
  private unsized: Span[] = [];
  private readonly deferSizes: boolean;

  constructor(
    private readonly journal: UndoJournal,
    private readonly estimateSize: SpanSizeEstimator,
  ) {
    this.deferSizes = estimateSize === estimateSpanBytes;
  }

  get size(): number {
    return this.total;
  }

  get bytes(): number {
    this.addUnsized();
    return this.totalBytes;
  }

  private sizeOf(span: Span): number {
    return Math.max(0, Math.floor(this.estimateSize(span)) || 0);
  }

  private addUnsized(): void {
    if (this.unsized.length === 0) return;
    for (const span of this.unsized) this.totalBytes += this.sizeOf(span);
    this.unsized = [];
  }

  /** Stores the span unless its primary key exists; returns whether it was stored. */
  insert(span: Span): boolean {
    const { rollout_id: rolloutId, attempt_id: attemptId, span_id: spanId } = span;
    if (this.byRollout.get(rolloutId)?.byAttempt.get(attemptId)?.has(spanId)) return false;
    const bytes = this.deferSizes ? 0 : this.sizeOf(span);

    let group = this.byRollout.get(rolloutId);
    if (group === undefined) {
      group = { all: [], byAttempt: new Map() };
      this.byRollout.set(rolloutId, group);
    }
    let ofAttempt = group.byAttempt.get(attemptId);
    if (ofAttempt === undefined) {
      ofAttempt = new Map();
      group.byAttempt.set(attemptId, ofAttempt);
    }
    ofAttempt.set(spanId, span);
    group.all.push(span);
    this.total++;
    if (this.deferSizes) this.unsized.push(span);
    else this.totalBytes += bytes;

    if (this.journal.active) {
      const rolloutGroup = group;
      const attemptGroup = ofAttempt;
      this.journal.record(() => {
        rolloutGroup.all.pop();
        attemptGroup.delete(spanId);
        if (attemptGroup.size === 0) rolloutGroup.byAttempt.delete(attemptId);
        if (rolloutGroup.all.length === 0) this.byRollout.delete(rolloutId);
        this.total--;
        // Undone in reverse order, so the span is the last unsized one unless the total was read since.
        if (!this.deferSizes) this.totalBytes -= bytes;
        else if (this.unsized.at(-1) === span) this.unsized.pop();
        else this.totalBytes -= this.sizeOf(span);
      });
    }
    return true;
  }

  /** Ids of the rollouts holding spans, in the order their first span arrived (oldest first). */
  rolloutIds(): IterableIterator<string> {
    return this.byRollout.keys();
  }

  /**
   * Drops every span of a rollout, outside the undo journal (eviction is not undone by a rollback).
   * Returns how many spans and estimated bytes were freed.
   */
  evictRollout(rolloutId: string): { spans: number; bytes: number } {
    const group = this.byRollout.get(rolloutId);
    if (group === undefined) return { spans: 0, bytes: 0 };
    this.addUnsized();
    let bytes = 0;
    for (const span of group.all) bytes += this.sizeOf(span);
    this.byRollout.delete(rolloutId);
    this.total -= group.all.length;
    this.totalBytes -= bytes;
    return { spans: group.all.length, bytes };
  }

  /** The spans of one rollout (optionally one attempt) in insertion order. */
  candidates(rolloutId: string, attemptId: string | null): Iterable<Span> {
    const group = this.byRollout.get(rolloutId);
    if (group === undefined) return [];
    if (attemptId === null) return group.all;
    return group.byAttempt.get(attemptId)?.values() ?? [];
  }

  clear(): void {
    this.byRollout.clear();
    this.total = 0;
    this.totalBytes = 0;
    this.unsized = [];
  }
}
