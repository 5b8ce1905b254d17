import {
  type LightningStore,
  NotFoundError,
  type Span,
  StoreClosedError,
  spanFromOtel,
  ValidationError,
} from '@arclight/core';
import {
  type DeliveryItem,
  type DeliveryOutcome,
  groupByAttempt,
  type SpanDestination,
} from './destination.js';

/**
 * Writes spans into an in-process store (`capabilities.otlp_traces === false`, e.g. `InMemoryLightningStore`):
 * one `getManySpanSequenceIds` and one `addManySpans` per rollout/attempt of a batch, so that a failure for
 * one rollout (say, an unknown attempt) does not take the other rollouts' spans down with it.
 */
export class StoreSpanDestination implements SpanDestination {
  readonly kind = 'store';

  constructor(readonly store: LightningStore) {}

  async write(items: DeliveryItem[]): Promise<DeliveryOutcome[]> {
    return Promise.all(groupByAttempt(items).map((group) => this.writeGroup(group)));
  }

  private async writeGroup(group: DeliveryItem[]): Promise<DeliveryOutcome> {
    const { rolloutId, attemptId } = group[0]!.attribution;
    try {
      const missing = group.filter((item) => item.sequenceId === undefined);
      if (missing.length > 0) {
        const ids = await this.store.getManySpanSequenceIds(
          missing.map((): [string, string] => [rolloutId, attemptId]),
        );
        missing.forEach((item, i) => {
          item.sequenceId = ids[i];
        });
      }
      const spans = group.map((item) =>
        spanFromOtel(item.readable, rolloutId, attemptId, item.sequenceId ?? 0),
      );
      const stored = await this.store.addManySpans(spans);
      const byId = new Map<string, Span>(stored.map((span) => [span.span_id, span]));
      group.forEach((item, i) => {
        // A span the store already had (a retry after a timed-out write) is not returned; keep our copy.
        item.stored = byId.get(spans[i]!.span_id) ?? spans[i];
      });
      return { ok: true, items: group };
    } catch (error) {
      return { ok: false, items: group, error, retryable: isRetryableStoreError(error) };
    }
  }
}

/**
 * Whether a store failure may go away by itself. Bad arguments, unknown ids and a closed store will not;
 * errors carrying an HTTP status are retried for 408, 429 and 5xx; anything else (network, timeouts) is.
 */
export function isRetryableStoreError(error: unknown): boolean {
  if (error instanceof ValidationError || error instanceof NotFoundError) return false;
  if (error instanceof StoreClosedError) return false;
  const status = (error as { status?: unknown } | null)?.status;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return status === 408 || status === 429;
  }
  return true;
}
