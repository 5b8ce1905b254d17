import {
  type Algorithm,
  type AlgorithmContext,
  findFinalReward,
  interruptibleSleep,
  type Logger,
  type Rollout,
  type RolloutMode,
  type Span,
  verboseConsoleLogger,
} from '@arclight/core';

export interface DevBaselineOptions {
  /** Seconds between queue/completion polls. Default 0.5. */
  pollInterval?: number;
  /** Enqueue the next task only while at most this many rollouts are waiting. Default 4 (upstream). */
  maxQueueLength?: number;
  /** Receives one line per finished rollout. Default: the console. */
  logger?: Logger | null;
}

/** The outcome of one task of a dev run. */
export interface DevRolloutResult {
  rollout_id: string;
  input: unknown;
  mode: RolloutMode | null;
  status: Rollout['status'];
  /** Attempts made (retries included). */
  attempts: number;
  /** The last reward among the latest attempt's spans, or null. */
  final_reward: number | null;
  /** The adapter's output for the latest attempt's spans, when the trainer has an adapter. */
  adapted?: unknown;
}

/**
 * The quick algorithm of `Trainer.dev()` (a minimal version of upstream's `Baseline`): stores the initial
 * resources as `"default"`, streams the train then val tasks through the queue (mode `train` / `val`, at most
 * `maxQueueLength` waiting), waits for every rollout and reports status, attempts and final reward of each
 * (`results`). It learns nothing — it checks that agent, runners, tracing and store work together.
 */
export class DevBaseline implements Algorithm {
  readonly fast = true;
  /** One entry per task of the last run, in dataset order. */
  results: DevRolloutResult[] = [];
  private readonly pollInterval: number;
  private readonly maxQueueLength: number;
  private readonly logger: Logger | null;

  constructor(options: DevBaselineOptions = {}) {
    this.pollInterval = options.pollInterval ?? 0.5;
    this.maxQueueLength = options.maxQueueLength ?? 4;
    this.logger = options.logger === undefined ? verboseConsoleLogger : options.logger;
  }

  async run(ctx: AlgorithmContext): Promise<void> {
    const { store, signal } = ctx;
    const tasks: Array<{ input: unknown; mode: RolloutMode }> = [
      ...(ctx.trainDataset ?? []).map((input) => ({ input, mode: 'train' as const })),
      ...(ctx.valDataset ?? []).map((input) => ({ input, mode: 'val' as const })),
    ];
    this.results = [];
    if (tasks.length === 0) {
      this.logger?.error('DevBaseline: no tasks — pass a dev (or train/val) dataset.');
      return;
    }
    const resourcesId = ctx.initialResources
      ? (await store.updateResources('default', ctx.initialResources)).resources_id
      : null;

    const ids: string[] = [];
    for (const task of tasks) {
      while (!signal.aborted) {
        const waiting = await store.queryRollouts({
          status_in: ['queuing', 'requeuing'],
          limit: 1,
        });
        if (waiting.total <= this.maxQueueLength) break;
        await interruptibleSleep(this.pollInterval, signal);
      }
      if (signal.aborted) return;
      const rollout = await store.enqueueRollout({ ...task, resources_id: resourcesId });
      ids.push(rollout.rollout_id);
    }

    const finished = new Map<string, DevRolloutResult>();
    while (!signal.aborted && finished.size < ids.length) {
      const pending = ids.filter((id) => !finished.has(id));
      const done = await store.waitForRollouts({
        rollout_ids: pending,
        timeout: this.pollInterval,
      });
      for (const rollout of done) {
        const result = await this.describe(ctx, rollout);
        finished.set(rollout.rollout_id, result);
        this.logger?.info?.(
          `[Rollout ${rollout.rollout_id}] ${result.mode ?? '-'} ${result.status} after ` +
            `${result.attempts} attempt(s); final reward ${result.final_reward}`,
        );
      }
    }
    this.results = ids.flatMap((id) => finished.get(id) ?? []);
  }

  private async describe(ctx: AlgorithmContext, rollout: Rollout): Promise<DevRolloutResult> {
    const { store } = ctx;
    const attempts = await store.queryAttempts(rollout.rollout_id, { limit: 1 });
    const spans: Span[] =
      attempts.total > 0
        ? (await store.querySpans(rollout.rollout_id, { attempt_id: 'latest' })).items
        : [];
    spans.sort((a, b) => a.sequence_id - b.sequence_id);
    const result: DevRolloutResult = {
      rollout_id: rollout.rollout_id,
      input: rollout.input,
      mode: rollout.mode,
      status: rollout.status,
      attempts: attempts.total,
      final_reward: findFinalReward(spans),
    };
    if (ctx.adapter) result.adapted = ctx.adapter.adapt(spans);
    return result;
  }
}
