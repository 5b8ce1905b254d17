import {
  type Algorithm,
  type AlgorithmContext,
  type Attempt,
  findFinalReward,
  interruptibleSleep,
  type Logger,
  type Rollout,
  type RolloutMode,
  resolveLogger,
  type Span,
  ValidationError,
  verboseConsoleLogger,
} from '@arclight/core';
import { AlgorithmStopped, latestAttemptSpans } from './rollout-batch.js';

export type SpanVerbosity = 'keys' | 'key_values' | 'none';

export interface BaselineOptions {
  /** Passes over the datasets. Default 1. */
  nEpochs?: number;
  /** Seconds between queue-length checks and completion waits. Default 1 (upstream: 5). */
  pollInterval?: number;
  /** Enqueue the next task only while at most this many rollouts are waiting. Default 4. */
  maxQueueLength?: number;
  /** Span lines per finished rollout: attribute keys, keys and values, or none. Default `keys`. */
  spanVerbosity?: SpanVerbosity;
  /** Default: the console; `null` silences. */
  logger?: Logger | null;
}

/** One finished rollout of a baseline run. */
export interface BaselineResult {
  epoch: number;
  rollout_id: string;
  input: unknown;
  mode: RolloutMode | null;
  status: Rollout['status'];
  attempts: Array<Pick<Attempt, 'attempt_id' | 'sequence_id' | 'status' | 'worker_id'>>;
  /** The last reward of the latest attempt's spans, or null. */
  final_reward: number | null;
  /** Spans of the latest attempt. */
  spans: number;
  /** The adapter's output for the latest attempt's spans (when the trainer has an adapter). */
  adapted?: unknown;
}

const isoTime = (seconds: number | null | undefined): string =>
  typeof seconds === 'number' ? new Date(seconds * 1000).toISOString() : 'unknown';

/**
 * Upstream `Baseline` (`algorithm/fast.py`), a fast algorithm for `Trainer.dev()` and smoke tests: publishes the
 * initial resources as `"default"`, streams the train tasks (mode `train`) then the val tasks (mode `val`)
 * through the queue — enqueueing only while at most `maxQueueLength` rollouts wait — for `nEpochs` passes, and
 * logs every finished rollout: status and duration, each attempt (id, status, worker), each span (by
 * `spanVerbosity`) and the adapter's output. It learns nothing; `results` keeps one entry per rollout.
 */
export class Baseline implements Algorithm {
  readonly fast = true;
  results: BaselineResult[] = [];
  private readonly nEpochs: number;
  private readonly pollInterval: number;
  private readonly maxQueueLength: number;
  private readonly spanVerbosity: SpanVerbosity;
  private readonly logger: Logger;
  private warnedNoAdapter = false;

  constructor(options: BaselineOptions = {}) {
    this.nEpochs = options.nEpochs ?? 1;
    this.pollInterval = options.pollInterval ?? 1;
    this.maxQueueLength = options.maxQueueLength ?? 4;
    this.spanVerbosity = options.spanVerbosity ?? 'keys';
    this.logger = resolveLogger(options.logger, verboseConsoleLogger);
    if (!Number.isInteger(this.nEpochs) || this.nEpochs < 1) {
      throw new ValidationError(
        `nEpochs: expected a positive integer, got ${String(this.nEpochs)}`,
      );
    }
    if (!Number.isInteger(this.maxQueueLength) || this.maxQueueLength < 0) {
      throw new ValidationError(
        `maxQueueLength: expected a non-negative integer, got ${String(this.maxQueueLength)}`,
      );
    }
    if (!(this.pollInterval > 0)) {
      throw new ValidationError(
        `pollInterval: expected a positive number, got ${String(this.pollInterval)}`,
      );
    }
    if (!['keys', 'key_values', 'none'].includes(this.spanVerbosity)) {
      throw new ValidationError(
        `spanVerbosity: expected keys, key_values or none, got ${String(this.spanVerbosity)}`,
      );
    }
  }

  async run(ctx: AlgorithmContext): Promise<void> {
    const tasks: Array<{ input: unknown; mode: RolloutMode }> = [
      ...(ctx.trainDataset ?? []).map((input) => ({ input, mode: 'train' as const })),
      ...(ctx.valDataset ?? []).map((input) => ({ input, mode: 'val' as const })),
    ];
    this.results = [];
    if (tasks.length === 0) {
      this.logger.error('Baseline requires at least one dataset: pass a train or val dataset.');
      return;
    }
    let resourcesId: string | null = null;
    if (ctx.initialResources) {
      resourcesId = (await ctx.store.updateResources('default', ctx.initialResources)).resources_id;
      this.logger.info?.(`Initial resources set: ${Object.keys(ctx.initialResources).join(', ')}`);
    } else {
      this.logger.warn('No initial resources provided. Skip initializing resources.');
    }
    try {
      for (let epoch = 1; epoch <= this.nEpochs; epoch++) {
        this.logger.info?.(`Proceeding epoch ${epoch}/${this.nEpochs}.`);
        await this.runEpoch(ctx, tasks, resourcesId, epoch);
      }
    } catch (error) {
      if (!(error instanceof AlgorithmStopped)) throw error;
      this.logger.warn(`Baseline stopped after ${this.results.length} finished rollouts.`);
    }
  }

  private async runEpoch(
    ctx: AlgorithmContext,
    tasks: Array<{ input: unknown; mode: RolloutMode }>,
    resourcesId: string | null,
    epoch: number,
  ): Promise<void> {
    const { store, signal } = ctx;
    const pending = new Set<string>();
    const order: string[] = [];
    const done = new Map<string, BaselineResult>();
    let enqueued = false;

    const harvest = async () => {
      while (!enqueued || pending.size > 0) {
        if (signal.aborted) throw new AlgorithmStopped();
        if (pending.size === 0) {
          await interruptibleSleep(Math.min(this.pollInterval, 0.05), signal);
          continue;
        }
        const finished = await store.waitForRollouts({
          rollout_ids: [...pending],
          timeout: this.pollInterval,
        });
        for (const rollout of finished) {
          pending.delete(rollout.rollout_id);
          done.set(rollout.rollout_id, await this.handleFinished(ctx, rollout, epoch));
          this.logger.info?.(`Finished ${done.size} rollouts.`);
        }
      }
    };
    const harvester = harvest();
    // Keep the harvester's rejection from going unhandled while the enqueue loop runs.
    harvester.catch(() => {});
    try {
      for (const task of tasks) {
        for (;;) {
          if (signal.aborted) throw new AlgorithmStopped();
          const waiting = await store.queryRollouts({
            status_in: ['queuing', 'requeuing'],
            limit: 1,
          });
          if (waiting.total <= this.maxQueueLength) break;
          await interruptibleSleep(this.pollInterval, signal);
        }
        const rollout = await store.enqueueRollout({ ...task, resources_id: resourcesId });
        this.logger.info?.(`Enqueued rollout ${rollout.rollout_id} in ${task.mode} mode.`);
        pending.add(rollout.rollout_id);
        order.push(rollout.rollout_id);
      }
    } finally {
      enqueued = true;
    }
    await harvester;
    this.results.push(...order.flatMap((id) => done.get(id) ?? []));
  }

  private async handleFinished(
    ctx: AlgorithmContext,
    rollout: Rollout,
    epoch: number,
  ): Promise<BaselineResult> {
    const { store } = ctx;
    const id = rollout.rollout_id;
    const seconds =
      rollout.end_time != null ? (rollout.end_time - rollout.start_time).toFixed(2) : 'unknown';
    this.logger.info?.(
      `[Rollout ${id}] Finished with status ${rollout.status} in ${seconds} seconds.`,
    );
    const attempts = (await store.queryAttempts(id)).items;
    const allSpans = (await store.querySpans(id)).items;
    for (const attempt of attempts) {
      this.logger.info?.(
        `[Rollout ${id} | Attempt ${attempt.sequence_id}] ID: ${attempt.attempt_id}. ` +
          `Status: ${attempt.status}. Worker: ${attempt.worker_id ?? 'none'}`,
      );
      for (const span of allSpans.filter((s) => s.attempt_id === attempt.attempt_id)) {
        const line = this.spanLine(id, attempt, span);
        if (line) this.logger.info?.(line);
      }
    }
    const spans = await latestAttemptSpans(store, id);
    const result: BaselineResult = {
      epoch,
      rollout_id: id,
      input: rollout.input,
      mode: rollout.mode ?? null,
      status: rollout.status,
      attempts: attempts.map(({ attempt_id, sequence_id, status, worker_id }) => ({
        attempt_id,
        sequence_id,
        status,
        worker_id,
      })),
      final_reward: findFinalReward(spans),
      spans: spans.length,
    };
    if (ctx.adapter) {
      result.adapted = ctx.adapter.adapt(spans);
      this.logger.info?.(`[Rollout ${id}] Adapted data: ${JSON.stringify(result.adapted)}`);
    } else if (!this.warnedNoAdapter) {
      this.warnedNoAdapter = true;
      this.logger.warn('No adapter set. Skipping trace adaptation.');
    }
    return result;
  }

  private spanLine(rolloutId: string, attempt: Attempt, span: Span): string {
    if (this.spanVerbosity === 'none') return '';
    const elapsed =
      span.start_time != null && span.end_time != null
        ? (span.end_time - span.start_time).toFixed(2)
        : 'unknown';
    const head =
      `[Rollout ${rolloutId} | Attempt ${attempt.attempt_id} | Span ${span.span_id}] ` +
      `#${span.sequence_id} (${span.name}) From ${isoTime(span.start_time)}, to ` +
      `${isoTime(span.end_time)}, ${elapsed} seconds. `;
    return this.spanVerbosity === 'key_values'
      ? `${head}Attributes: ${JSON.stringify(span.attributes)}`
      : `${head}Attribute keys: ${JSON.stringify(Object.keys(span.attributes ?? {}))}`;
  }
}
