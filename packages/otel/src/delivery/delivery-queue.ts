import type { ScopeRecord, TraceScope } from '../tracer/trace-scope.js';
import type { DeliveryItem, DeliveryOutcome, SpanDestination } from './destination.js';
import type { RateLimitedWarnings } from './warnings.js';

/** Batching and retry settings of the delivery queue (all times in milliseconds). */
export interface DeliveryQueueOptions {
  /** Finished spans waiting for export beyond this are dropped. Default 2048. */
  maxQueueSize: number;
  /** At most this many spans per write; a full batch is exported at once. Default 512. */
  maxExportBatchSize: number;
  /** A partial batch waits at most this long (unless a flush or a context end comes first). Default 500. */
  scheduledDelayMillis: number;
  /** One write attempt is abandoned (and retried) after this long. Default 10 000 (upstream's 10 s). */
  exportTimeoutMillis: number;
  /** Retries after a failed attempt before the spans are dropped. Default 3. */
  maxRetries: number;
  /** Backoff before retry n is `retryDelayMillis * 2^(n-1)`, capped by `maxRetryDelayMillis`. Default 200. */
  retryDelayMillis: number;
  /** Default 5000. */
  maxRetryDelayMillis: number;
}

export const DEFAULT_DELIVERY_QUEUE_OPTIONS: DeliveryQueueOptions = {
  maxQueueSize: 2048,
  maxExportBatchSize: 512,
  scheduledDelayMillis: 500,
  exportTimeoutMillis: 10_000,
  maxRetries: 3,
  retryDelayMillis: 200,
  maxRetryDelayMillis: 5_000,
};

/** Counters of a tracer's export path. */
export interface DeliveryStats {
  /** Spans handed to the destination successfully. */
  exported: number;
  /** Spans given up on: queue full, rejected, failed after retries, or still queued at shutdown. */
  dropped: number;
  /** Writes given up on (not retryable, or out of retries). */
  failedExports: number;
  /** Write attempts that were retried. */
  retries: number;
  /** Spans currently queued or being written. */
  pending: number;
}

/** A span in the queue, with the scope it belongs to. */
export interface QueueItem extends DeliveryItem {
  readonly scope: TraceScope;
  readonly record: ScopeRecord;
}

/**
 * A bounded queue in front of a {@link SpanDestination}. Writes are asynchronous and one at a time; a failed write
 * is retried with exponential backoff a bounded number of times, then its spans are dropped and counted.
 * Nothing here ever throws into, or waits inside, the code that ends a span.
 */
export class DeliveryQueue {
  private readonly queue: QueueItem[] = [];
  private draining: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  private inFlight = 0;
  /** Aborted at shutdown: in-flight attempts are abandoned at once. */
  private readonly stopping = new AbortController();
  private readonly counters = { exported: 0, dropped: 0, failedExports: 0, retries: 0 };

  constructor(
    readonly destination: SpanDestination,
    private readonly options: DeliveryQueueOptions,
    private readonly warnings: RateLimitedWarnings,
  ) {}

  get stats(): DeliveryStats {
    return { ...this.counters, pending: this.queue.length + this.inFlight };
  }

  enqueue(item: QueueItem): void {
    if (this.closed) {
      this.drop([item], 'the tracer has been shut down', false);
      return;
    }
    if (this.queue.length >= this.options.maxQueueSize) {
      const reason = `the delivery queue is full (maxQueueSize=${this.options.maxQueueSize})`;
      this.drop([item], reason, false);
      return;
    }
    item.scope.addPending();
    this.queue.push(item);
    if (this.queue.length >= this.options.maxExportBatchSize) this.kick();
    else this.schedule();
  }

  /** Starts writing everything queued now, without waiting for the scheduled delay. */
  kick(): void {
    this.clearTimer();
    if (this.draining || this.queue.length === 0) return;
    this.draining = this.drain().finally(() => {
      this.draining = null;
      if (this.queue.length > 0) this.schedule();
    });
  }

  /**
   * Writes everything queued and resolves once the queue is empty and no write is in flight (`true`), or when
   * `timeoutMs` passes first (`false`; the spans stay queued and are still written later).
   */
  async flush(timeoutMs: number): Promise<boolean> {
    const done = (async () => {
      while (this.queue.length > 0 || this.draining) {
        this.kick();
        await this.draining;
      }
      return true;
    })();
    // A ref'd timer: whoever awaits a flush keeps the process alive until it ends (bounded by timeoutMs).
    return raceTimeout(done, timeoutMs, false, true);
  }

  /**
   * Flushes (bounded by `timeoutMs`), then refuses new spans and drops whatever is still queued or being
   * written (an unfinished write is abandoned).
   */
  async shutdown(timeoutMs: number): Promise<void> {
    await this.flush(timeoutMs);
    this.closed = true;
    this.clearTimer();
    const left = this.queue.splice(0);
    if (left.length > 0) this.drop(left, 'the tracer shut down before they could be written', true);
    this.stopping.abort();
    await this.draining;
    await this.destination.shutdown?.();
  }

  private schedule(): void {
    if (this.timer || this.draining || this.queue.length === 0) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.kick();
    }, this.options.scheduledDelayMillis);
    this.timer.unref?.();
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.options.maxExportBatchSize);
      this.inFlight += batch.length;
      try {
        await this.exportWithRetries(batch);
      } finally {
        this.inFlight -= batch.length;
      }
    }
  }

  private async exportWithRetries(batch: QueueItem[]): Promise<void> {
    let remaining = batch;
    for (let attempt = 0; ; attempt++) {
      const outcomes = await this.attempt(remaining);
      const retry: QueueItem[] = [];
      let lastError: unknown;
      for (const outcome of outcomes) {
        const items = outcome.items as QueueItem[];
        if (outcome.ok) this.delivered(items, outcome.rejected ?? 0);
        else if (!outcome.retryable) {
          this.counters.failedExports += 1;
          this.drop(
            items,
            `the ${this.destination.kind} destination refused them: ${describe(outcome.error)}`,
            true,
          );
        } else {
          retry.push(...items);
          lastError = outcome.error;
        }
      }
      if (retry.length === 0) return;
      if (attempt >= this.options.maxRetries || this.closed) {
        this.counters.failedExports += 1;
        const reason = `writing to the ${this.destination.kind} destination failed ${attempt + 1} time(s); last error: ${describe(lastError)}`;
        this.drop(retry, reason, true);
        return;
      }
      this.counters.retries += 1;
      const delay = Math.min(
        this.options.retryDelayMillis * 2 ** attempt,
        this.options.maxRetryDelayMillis,
      );
      await sleep(delay);
      remaining = retry;
    }
  }

  /** One write attempt, bounded by `exportTimeoutMillis` and by shutdown; never throws. */
  private async attempt(items: QueueItem[]): Promise<DeliveryOutcome[]> {
    const controller = new AbortController();
    const timeoutMs = this.options.exportTimeoutMillis;
    const failed = (error: unknown, retryable: boolean): DeliveryOutcome[] => [
      { ok: false, items, error, retryable },
    ];
    let answered = false;
    const write = this.destination.write(items, controller.signal).then(
      (outcomes) => {
        answered = true;
        return outcomes;
      },
      (error: unknown) => {
        answered = true;
        return failed(error, true);
      },
    );
    let stop: (() => void) | undefined;
    const abandoned = new Promise<DeliveryOutcome[]>((resolve) => {
      stop = () => resolve(failed(new Error('abandoned at shutdown'), false));
      if (this.stopping.signal.aborted) stop();
      else this.stopping.signal.addEventListener('abort', stop, { once: true });
    });
    const timedOut = failed(new Error(`no answer within exportTimeoutMillis=${timeoutMs}`), true);
    try {
      return await raceTimeout(Promise.race([write, abandoned]), timeoutMs, timedOut, false);
    } finally {
      this.stopping.signal.removeEventListener('abort', stop!);
      if (!answered) controller.abort();
    }
  }

  private delivered(items: QueueItem[], rejected: number): void {
    const accepted = Math.max(0, items.length - rejected);
    this.counters.exported += accepted;
    if (rejected > 0) {
      this.counters.dropped += rejected;
      this.warnings.warn(
        'rejected',
        `the ${this.destination.kind} destination rejected ${rejected} span(s)`,
      );
    }
    for (const item of items) {
      if (item.stored) item.record.stored = item.stored;
      item.scope.settle();
    }
  }

  /** `wasQueued`: the items had entered the queue (and count as pending in their scopes). */
  private drop(items: QueueItem[], reason: string, wasQueued: boolean): void {
    this.counters.dropped += items.length;
    const rollouts = [...new Set(items.map((item) => item.attribution.rolloutId))].join(', ');
    this.warnings.warn(
      'dropped',
      `dropped ${items.length} span(s) of rollout(s) ${rollouts}: ${reason}`,
    );
    if (wasQueued) for (const item of items) item.scope.settle();
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    timer.unref?.();
  });
}

/** `promise`, or `fallback` once `ms` passes first. `keepAlive`: whether the timer keeps the process alive. */
export function raceTimeout<T>(
  promise: Promise<T>,
  ms: number,
  fallback: T,
  keepAlive: boolean,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => resolve(fallback), ms);
    if (!keepAlive) timer.unref?.();
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
