import type { RolloutConfig, RolloutMode, TaskInput } from '@arclight/core';
import { ValidationError } from '@arclight/core';
import { currentTraceScope, emitReward, LightningTracer } from '@arclight/otel';
import type { LightningStore } from '@arclight/store';
import { describeError } from './error-info.js';
import { type RunnerLogger, resolveLogger } from './logger.js';

export interface RolloutRecorderOptions {
  /** Where rollouts, attempts and spans go: any LightningStore (in-memory, SQLite, `LightningStoreClient`). */
  store: LightningStore;
  /**
   * The tracer to record with. Default: a new `LightningTracer` writing to `store` that joins the application's
   * global OpenTelemetry provider if one is registered, else registers its own globally (so instrumentations
   * that use the global provider record into rollouts without further wiring).
   */
  tracer?: LightningTracer;
  /** Mode of the rollouts it creates. Default `"train"`. */
  mode?: RolloutMode | null;
  /** Worker id the attempts are started under. Default none. */
  workerId?: string | null;
  /** Receives problems of the store (never thrown at the agent). Default the console; `null` silences. */
  logger?: RunnerLogger | null;
}

export interface RecordOptions {
  mode?: RolloutMode | null;
  metadata?: Record<string, unknown> | null;
  resources_id?: string | null;
  config?: Partial<RolloutConfig> | null;
}

/** What the recorded function receives. */
export interface RecordContext {
  rolloutId: string;
  attemptId: string;
  /** True when the call joined the rollout of an enclosing `traceContext` (e.g. under a `Runner`). */
  joined: boolean;
}

/** A function's result that carries a reward: a number (or boolean), or an object with a numeric `reward`. */
export type RewardCarrier = number | boolean | { reward?: number | boolean | null };

/**
 * Turns runs of an existing agent into finished rollouts, in two lines:
 *
 * ```ts
 * const recorder = new RolloutRecorder({ store });
 * const answer = await recorder.record(task, () => myAgent(task)); // return a number, or { reward, ... }
 * ```
 *
 * `record` starts a rollout with `task` as input (attempt 1, under `workerId`), runs the function inside the
 * tracer's context (every span it starts belongs to that attempt), emits the reward it returns as the last span,
 * marks the attempt `succeeded` — or `failed` with the error in `metadata.error` when it throws (the error is
 * rethrown) — and resolves after the attempt's spans are written. Called inside an enclosing rollout context
 * (an agent run by a `Runner`), it joins that rollout instead: it runs the function and emits the reward, and the
 * runner finishes the attempt. The store failing never fails the agent: the problem is logged and the function
 * runs unrecorded.
 */
export class RolloutRecorder {
  readonly store: LightningStore;
  readonly tracer: LightningTracer;
  private readonly ownsTracer: boolean;
  private readonly mode: RolloutMode | null;
  private readonly workerId: string | null;
  private readonly logger: RunnerLogger;
  private closed: Promise<void> | null = null;

  constructor(options: RolloutRecorderOptions) {
    if (!options || typeof options.store?.startRollout !== 'function') {
      throw new ValidationError('RolloutRecorder: `store` must be a LightningStore');
    }
    this.store = options.store;
    this.ownsTracer = options.tracer === undefined;
    this.tracer = options.tracer ?? defaultTracer(options.store);
    this.mode = options.mode === undefined ? 'train' : options.mode;
    this.workerId = options.workerId ?? null;
    this.logger = resolveLogger(options.logger);
  }

  /** The provider the recorder's spans are created with; hand it to instrumentations that take one. */
  get tracerProvider(): LightningTracer['tracerProvider'] {
    return this.tracer.tracerProvider;
  }

  /** Runs `fn` as one rollout (or inside the enclosing one); see the class documentation. */
  async record<R>(
    input: TaskInput,
    fn: (ctx: RecordContext) => R | Promise<R>,
    options: RecordOptions = {},
  ): Promise<R> {
    if (typeof fn !== 'function') {
      throw new ValidationError(`RolloutRecorder.record: expected a function, got ${typeof fn}`);
    }
    if (this.closed) throw new Error('RolloutRecorder.record: the recorder is closed');

    const enclosing = currentTraceScope()?.attribution;
    if (enclosing) {
      const ctx = { rolloutId: enclosing.rolloutId, attemptId: enclosing.attemptId, joined: true };
      const value = await fn(ctx);
      this.emitRewardOf(value, ctx.rolloutId);
      return value;
    }

    let started: Awaited<ReturnType<LightningStore['startRollout']>>;
    try {
      started = await this.store.startRollout({
        input,
        mode: options.mode === undefined ? this.mode : options.mode,
        resources_id: options.resources_id ?? null,
        config: options.config ?? null,
        metadata: options.metadata ?? null,
        worker_id: this.workerId,
      });
    } catch (error) {
      this.logger.error(
        'RolloutRecorder: could not start a rollout in the store; running the agent unrecorded.',
        error,
      );
      return await fn({ rolloutId: '', attemptId: '', joined: false });
    }
    const ids = { rolloutId: started.rollout_id, attemptId: started.attempt.attempt_id };
    try {
      const value = await this.tracer.traceContext(ids, async () => {
        const result = await fn({ ...ids, joined: false });
        this.emitRewardOf(result, ids.rolloutId);
        return result;
      });
      await this.finish(ids, { status: 'succeeded' });
      return value;
    } catch (error) {
      await this.finish(ids, {
        status: 'failed',
        metadata: { ...(started.attempt.metadata ?? {}), error: describeError(error) },
      });
      throw error;
    }
  }

  /** Writes every span queued so far. Resolves `false` if `timeoutMs` passed first. */
  flush(timeoutMs?: number): Promise<boolean> {
    return this.tracer.flush(timeoutMs);
  }

  /** Flushes and shuts down the tracer the recorder created (a tracer passed in is only flushed). */
  close(): Promise<void> {
    this.closed ??= (async () => {
      if (this.ownsTracer) await this.tracer.shutdown();
      else await this.tracer.flush();
    })();
    return this.closed;
  }

  private emitRewardOf(value: unknown, rolloutId: string): void {
    const reward = rewardOf(value);
    if (reward === undefined) return;
    try {
      emitReward(reward);
    } catch (error) {
      this.logger.warn(
        `RolloutRecorder: rollout ${rolloutId}: the reward ${String(reward)} was not recorded: ${String(error)}`,
      );
    }
  }

  private async finish(
    ids: { rolloutId: string; attemptId: string },
    params: { status: 'succeeded' | 'failed'; metadata?: Record<string, unknown> },
  ): Promise<void> {
    try {
      await this.store.updateAttempt(ids.rolloutId, ids.attemptId, params);
    } catch (error) {
      this.logger.error(
        `RolloutRecorder: rollout ${ids.rolloutId}: could not mark the attempt ${params.status}.`,
        error,
      );
    }
  }
}

/** The reward a recorded function returned: a number or boolean, or the `reward` field of an object. */
function rewardOf(value: unknown): number | boolean | undefined {
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  if (value !== null && typeof value === 'object' && 'reward' in value) {
    const reward = (value as { reward: unknown }).reward;
    if (typeof reward === 'number' || typeof reward === 'boolean') return reward;
  }
  return undefined;
}

/** Joins the application's global OpenTelemetry provider, or registers a new one globally when there is none. */
function defaultTracer(store: LightningStore): LightningTracer {
  try {
    return new LightningTracer({ store, useGlobalTracerProvider: true });
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    return new LightningTracer({ store, registerGlobal: true });
  }
}
