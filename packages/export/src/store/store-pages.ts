import type { AttemptedRollout, Rollout, Span } from '@arclight/core';
import type { LightningStore } from '@arclight/store';

/** Page-by-page reads of a LightningStore (in-process or over HTTP): memory holds one page at a time. */

/** Every rollout, oldest first (`start_time` ascending), `pageSize` per request. */
export async function* rolloutPages(
  store: LightningStore,
  pageSize: number,
  onTotal?: (total: number) => void,
): AsyncGenerator<Array<Rollout | AttemptedRollout>> {
  for (let offset = 0; ; offset += pageSize) {
    const page = await store.queryRollouts({
      sort_by: 'start_time',
      sort_order: 'asc',
      limit: pageSize,
      offset,
    });
    onTotal?.(page.total);
    if (page.items.length > 0) yield page.items;
    if (page.items.length < pageSize || offset + page.items.length >= page.total) return;
  }
}

/** The given rollouts (with their latest attempt), in the order of `rolloutIds`. */
export async function rolloutsById(
  store: LightningStore,
  rolloutIds: readonly string[],
): Promise<Array<Rollout | AttemptedRollout>> {
  if (rolloutIds.length === 0) return [];
  const page = await store.queryRollouts({ rollout_id_in: [...rolloutIds], limit: -1 });
  const byId = new Map(page.items.map((r) => [r.rollout_id, r]));
  return rolloutIds.map((id) => byId.get(id)).filter((r) => r !== undefined);
}

/** All spans of one attempt, in `sequence_id` order, read `pageSize` at a time. */
export async function attemptSpans(
  store: LightningStore,
  rolloutId: string,
  attemptId: string,
  pageSize: number,
): Promise<Span[]> {
  const spans: Span[] = [];
  for (let offset = 0; ; offset += pageSize) {
    const page = await store.querySpans(rolloutId, {
      attempt_id: attemptId,
      sort_by: 'sequence_id',
      sort_order: 'asc',
      limit: pageSize,
      offset,
    });
    spans.push(...page.items);
    if (page.items.length < pageSize || spans.length >= page.total) return spans;
  }
}
