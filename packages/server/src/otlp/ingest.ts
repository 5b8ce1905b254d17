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
 */
export async function ingestOtlpSpans(
  store: LightningStore,
  { spans, unattributed }: ConvertedOtlpSpans,
): Promise<OtlpIngestResult> {
  const problems: string[] = [];
  if (unattributed > 0) {
    problems.push(
      `${unattributed} span(s) without ${ROLLOUT_ID_ATTRIBUTE} and ${ATTEMPT_ID_ATTRIBUTE} (resource or span attributes)`,
    );
  }
  let rejected = unattributed;
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
