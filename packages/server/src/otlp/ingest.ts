import type { Span } from '@arclight/core';
import type { LightningStore } from '@arclight/store';
import { statusOf } from '../http/errors.js';
import { ATTEMPT_ID_ATTRIBUTE, type ConvertedOtlpSpans, ROLLOUT_ID_ATTRIBUTE } from './convert.js';

export interface OtlpIngestResult {
  /** Spans handed to the store (duplicates the store ignores included). */
  accepted: number;
  /** Spans not stored: unattributed ones and those of unknown rollouts/attempts. */
  rejected: number;
  /** Why spans were rejected; empty when none were. */
  errorMessage: string;
}

/**
 * Allocates the missing sequence ids in bulk and stores the spans with `addManySpans`. The whole batch is tried
 * at once; if the store refuses it because some rollout/attempt is unknown (or a span is invalid), the spans are
 * retried per (rollout, attempt) group and the refused groups are counted as rejected instead of failing the
 * request. Any other store error propagates.
 *
 * Group commit: the span batches of requests that reach this point in the same event-loop turn are first
 * stored together (one sequence-id allocation and one `addManySpans`, so one transaction for a SQLite store).
 * If that fails for any reason, each request's batch is stored on its own as described above, so a bad
 * request fails alone and every request gets its own outcome. Each promise settles only after its spans
 * are stored.
 */
export function ingestOtlpSpans(
  store: LightningStore,
  converted: ConvertedOtlpSpans,
): Promise<OtlpIngestResult> {
  if (converted.spans.length === 0) return storeBatch(store, converted);
  let group = pendingGroups.get(store);
  if (group === undefined) {
    const created: PendingBatch[] = [];
    group = created;
    pendingGroups.set(store, created);
    setImmediate(() => {
      pendingGroups.delete(store);
      void storeGroup(store, created);
    });
  }
  return new Promise((resolve, reject) => group.push({ converted, resolve, reject }));
}

interface PendingBatch {
  converted: ConvertedOtlpSpans;
  resolve: (result: OtlpIngestResult) => void;
  reject: (error: unknown) => void;
}

/** Per store, the batches waiting for the end of the current event-loop turn. */
const pendingGroups = new Map<LightningStore, PendingBatch[]>();

async function storeGroup(store: LightningStore, group: PendingBatch[]): Promise<void> {
  if (group.length > 1) {
    const spans = group.flatMap((batch) => batch.converted.spans);
    let stored = false;
    try {
      await allocateSequenceIds(store, spans);
      await store.addManySpans(spans);
      stored = true;
    } catch {
      // Some batch is refused (or the store failed): each request's batch is stored and answered on its own.
    }
    if (stored) {
      for (const { converted, resolve } of group) resolve(resultOf(converted, 0, []));
      return;
    }
  }
  for (const { converted, resolve, reject } of group) {
    storeBatch(store, converted).then(resolve, reject);
  }
}

async function storeBatch(
  store: LightningStore,
  converted: ConvertedOtlpSpans,
): Promise<OtlpIngestResult> {
  const { spans } = converted;
  const problems: string[] = [];
  let rejected = 0;
  if (spans.length > 0) {
    try {
      await allocateSequenceIds(store, spans);
      await store.addManySpans(spans);
    } catch (error) {
      if (!isRejection(error)) throw error;
      for (const group of groupByAttempt(spans)) {
        try {
          await allocateSequenceIds(store, group);
          await store.addManySpans(group);
        } catch (groupError) {
          if (!isRejection(groupError)) throw groupError;
          rejected += group.length;
          problems.push(`${group.length} span(s) rejected: ${(groupError as Error).message}`);
        }
      }
    }
  }
  return resultOf(converted, rejected, problems);
}

function resultOf(
  { spans, unattributed }: ConvertedOtlpSpans,
  rejectedSpans: number,
  storeProblems: string[],
): OtlpIngestResult {
  const problems: string[] = [];
  if (unattributed > 0) {
    problems.push(
      `${unattributed} span(s) without ${ROLLOUT_ID_ATTRIBUTE} and ${ATTEMPT_ID_ATTRIBUTE} (resource or span attributes)`,
    );
  }
  problems.push(...storeProblems);
  const rejected = unattributed + rejectedSpans;
  return {
    accepted: unattributed + spans.length - rejected,
    rejected,
    errorMessage: problems.join('; '),
  };
}

/** Store errors that concern the spans themselves (unknown ids, invalid values), not the store's health. */
function isRejection(error: unknown): boolean {
  const status = statusOf(error);
  return status === 404 || status === 400 || status === 422;
}

async function allocateSequenceIds(store: LightningStore, spans: Span[]): Promise<void> {
  const pending = spans.filter((span) => span.sequence_id < 0);
  if (pending.length === 0) return;
  const ids = await store.getManySpanSequenceIds(
    pending.map((span): [string, string] => [span.rollout_id, span.attempt_id]),
  );
  pending.forEach((span, i) => {
    span.sequence_id = ids[i]!;
  });
}

function groupByAttempt(spans: Span[]): Span[][] {
  const groups = new Map<string, Span[]>();
  for (const span of spans) {
    const key = JSON.stringify([span.rollout_id, span.attempt_id]);
    const group = groups.get(key);
    if (group) group.push(span);
    else groups.set(key, [span]);
  }
  return [...groups.values()];
}
