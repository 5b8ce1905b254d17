import type { AttemptOutcome, RunnerCycleParams, RunnerCycleResult } from '@arclight/client';
import {
  type AttemptedRollout,
  findFinalReward,
  type NamedResources,
  NotFoundError,
  type ResourcesUpdate,
  type Rollout,
  type RolloutConfig,
  type RolloutMode,
  type Span,
  StoreClosedError,
  type TaskInput,
  ValidationError,
} from '@arclight/core';
import { LightningTracer } from '@arclight/otel';
import type { LightningStore } from '@arclight/store';
import { describeError } from './error-info.js';
import { startHeartbeat } from './heartbeat.js';
import { type Hook, type HookRunner, triggerHooks } from './hooks.js';
import type { LitAgent } from './lit-agent.js';
import { type RunnerLogger, resolveLogger } from './logger.js';
import { postProcessRolloutResult } from './post-process.js';
import {
  checkMaxRollouts,
  checkSeconds,
  formatWorkerId,
  type RunnerOptions,
} from './runner-options.js';
import { type RunnerTracer, traceAttempt } from './runner-tracer.js';
import { interruptibleSleep, jittered } from './sleep.js';

export interface IterOptions {
  /** Stops the loop: before the next dequeue, and during the sleep between polls (the current rollout finishes). */
  signal?: AbortSignal;
}

export interface StepOptions {
  /** Stored with `addResources` and used for this rollout; otherwise the latest resources are used. */
  resources?: NamedResources;
  mode?: RolloutMode | null;
  config?: Partial<RolloutConfig> | null;
  metadata?: Record<string, unknown> | null;
}

/**
 * Executes rollouts of a LightningStore with an agent (upstream `LitAgentRunner`): `iter()` polls the queue,
 * `step()` runs one task directly. Each rollout runs under `tracer.traceContext`, its result is recorded, and
 * its attempt is marked `succeeded` — or `failed`, with the exception in the attempt's metadata
 * (`metadata.error = { type, message, stack }`). An agent exception never stops `iter()`.
 */
export class Runner<T = unknown> implements HookRunner {
  readonly agent: LitAgent<T>;
  readonly store: LightningStore;
  readonly tracer: RunnerTracer;
  readonly workerId: string;
  readonly maxRollouts: number | null;
  readonly pollInterval: number;
  readonly heartbeatInterval: number;
  readonly intervalJitter: number;
  private readonly hooks: readonly Hook[];
  private readonly logger: RunnerLogger;
  private readonly ownsTracer: boolean;
  private readonly heartbeatStats: (() => Record<string, unknown>) | undefined;
  private iterating = false;
  private closed: Promise<void> | null = null;

  constructor(options: RunnerOptions<T>) {
    this.agent = options.agent;
    this.store = options.store;
    this.workerId = formatWorkerId(options.workerId);
    this.maxRollouts = checkMaxRollouts(options.maxRollouts);
    this.pollInterval = checkSeconds('pollInterval', options.pollInterval ?? 5);
    this.heartbeatInterval = checkSeconds('heartbeatInterval', options.heartbeatInterval ?? 10);
    this.intervalJitter = checkSeconds('intervalJitter', options.intervalJitter ?? 0.5);
    const hooks = options.hooks ?? [];
    this.hooks = Array.isArray(hooks) ? [...hooks] : [hooks as Hook];
    this.logger = resolveLogger(options.logger);
    this.heartbeatStats = options.heartbeatStats;
    this.ownsTracer = options.tracer === undefined;
    this.tracer = options.tracer ?? new LightningTracer({ store: this.store });
    this.agent.setRunner(this);
  }

  /**
   * Dequeues and runs rollouts until `signal` aborts or `maxRollouts` have run; sends worker heartbeats
   * meanwhile. An empty queue is polled every `pollInterval ± intervalJitter` seconds. Resolves with the
   * number of rollouts run. Store failures while polling are logged and retried, except a closed store.
   */
  async iter(options: IterOptions = {}): Promise<number> {
    if (this.iterating) throw new Error(`${this.prefix()} iter() is already running`);
    this.iterating = true;
    const { signal } = options;
    let processed = 0;
    this.log(
      'info',
      `${this.prefix()} Started (max rollouts: ${this.maxRollouts ?? 'unlimited'}).`,
    );
    const stopHeartbeat =
      this.heartbeatInterval > 0
        ? startHeartbeat({
            store: this.store,
            workerId: this.workerId,
            interval: this.heartbeatInterval,
            jitter: this.intervalJitter,
            logger: this.logger,
            prefix: this.prefix(),
            snapshot: this.heartbeatStats,
          })
        : null;
    const cycle = runnerCycleOf(this.store);
    // With a store that has `runnerCycle` (LightningStoreClient), a rollout's outcome travels with the next
    // dequeue: one request per rollout against an Arclight server. The store calls are the same, in the same order.
    let pending: AttemptOutcome | null = null;
    try {
      while (!signal?.aborted && (this.maxRollouts === null || processed < this.maxRollouts)) {
        const next = await this.nextRollout(signal, cycle, pending);
        pending = null;
        if (!next) break;
        pending = await this.runAttempt(next.rollout, false, next.resources, cycle !== null);
        processed += 1;
      }
    } finally {
      if (pending) await this.sendOutcome(pending, this.prefix(pending.rollout_id));
      await stopHeartbeat?.();
      this.iterating = false;
    }
    this.log('info', `${this.prefix()} Finished; ran ${processed} rollout(s).`);
    return processed;
  }

  /**
   * Runs `input` as a new rollout right away, bypassing the queue (`startRollout` with this worker id), and
   * returns the finished rollout. Unlike `iter()`, an exception of the agent (or of recording its result)
   * propagates — after the attempt has been marked failed.
   */
  async step(input: TaskInput, options: StepOptions = {}): Promise<Rollout> {
    const resourcesId = options.resources
      ? (await this.store.addResources(options.resources)).resources_id
      : null;
    const attempted = await this.store.startRollout({
      input,
      mode: options.mode ?? null,
      resources_id: resourcesId,
      config: options.config ?? null,
      metadata: options.metadata ?? null,
      worker_id: this.workerId,
    });
    await this.runAttempt(attempted, true);
    const finished = await this.store.getRolloutById(attempted.rollout_id);
    if (!finished) {
      throw new NotFoundError(
        `${this.prefix()} rollout ${attempted.rollout_id} vanished after step()`,
      );
    }
    return finished;
  }

  /** Shuts down the tracer the runner created (a tracer passed in is only flushed). Idempotent. */
  close(): Promise<void> {
    this.closed ??= (async () => {
      if (this.ownsTracer) await this.tracer.shutdown?.();
      else await this.tracer.flush?.();
    })();
    return this.closed;
  }

  /**
   * Polls the queue until a rollout comes (or `signal` aborts). `pending`, the previous rollout's outcome, is
   * applied first: with `cycle` in the same request as the first poll, else with `updateAttempt`.
   */
  private async nextRollout(
    signal: AbortSignal | undefined,
    cycle: RunnerCycle | null,
    pending: AttemptOutcome | null,
  ): Promise<{ rollout: AttemptedRollout; resources?: ResourcesUpdate | null } | null> {
    let finish = pending;
    if (finish && !cycle) {
      await this.sendOutcome(finish, this.prefix(finish.rollout_id));
      finish = null;
    }
    while (!signal?.aborted) {
      try {
        if (cycle) {
          const turn = await this.cycleTurn(cycle, finish);
          finish = null;
          if (turn.rollout) return { rollout: turn.rollout, resources: turn.resources };
        } else {
          const next = await this.store.dequeueRollout({ worker_id: this.workerId });
          if (next) return { rollout: next };
        }
      } catch (error) {
        if (finish) await this.sendOutcome(finish, this.prefix(finish.rollout_id));
        finish = null;
        if (error instanceof StoreClosedError) throw error;
        this.logger.warn(`${this.prefix()} Polling the queue failed: ${String(error)}`);
      }
      await interruptibleSleep(jittered(this.pollInterval, this.intervalJitter), signal);
    }
    if (finish) await this.sendOutcome(finish, this.prefix(finish.rollout_id));
    return null;
  }

  /** One `runnerCycle`; an outcome the server could not apply for a transient reason is sent again with retries. */
  private async cycleTurn(
    cycle: RunnerCycle,
    finish: AttemptOutcome | null,
  ): Promise<RunnerCycleResult> {
    const turn = await cycle({ worker_id: this.workerId, finish });
    if (finish && turn.finishError) {
      const final =
        turn.finishError instanceof ValidationError || turn.finishError instanceof NotFoundError;
      if (turn.extension && !final) await this.sendOutcome(finish, this.prefix(finish.rollout_id));
      else {
        this.logger.error(
          `${this.prefix(finish.rollout_id)} Could not update the attempt; giving up the update.`,
          turn.finishError,
        );
      }
    }
    return turn;
  }

  /**
   * Upstream `_step_impl`. With `raise`, the agent's exception is rethrown after the attempt is recorded.
   * `resources` already fetched (by a runner cycle) are used as they are. With `defer`, the attempt's outcome
   * is returned instead of sent (the caller sends it with the next dequeue).
   */
  private async runAttempt(
    rollout: AttemptedRollout,
    raise: boolean,
    fetched?: ResourcesUpdate | null,
    defer = false,
  ): Promise<AttemptOutcome | null> {
    const rolloutId = rollout.rollout_id;
    const attemptId = rollout.attempt.attempt_id;
    const prefix = this.prefix(rolloutId);
    const started = performance.now();

    let resources: NamedResources;
    try {
      resources =
        fetched === undefined ? await this.fetchResources(rollout) : resourcesOf(rollout, fetched);
    } catch (error) {
      this.logger.error(`${prefix} Could not fetch the rollout's resources.`, error);
      const outcome = outcomeOf(rollout, { error });
      if (defer) return outcome;
      await this.sendOutcome(outcome, prefix);
      if (raise) throw error;
      return null;
    }

    const ctx = { agent: this.agent as LitAgent<unknown>, runner: this, rollout };
    const traceCtx = { ...ctx, tracer: this.tracer };
    let spans: Span[] = [];
    let failure: { error: unknown } | null = null;
    try {
      await triggerHooks(this.hooks, 'onRolloutStart', ctx, this.logger, prefix);
      const { value, lastTrace } = await traceAttempt(
        this.tracer,
        { rolloutId, attemptId },
        async () => {
          await triggerHooks(this.hooks, 'onTraceStart', traceCtx, this.logger, prefix);
          const result =
            rollout.mode === 'train'
              ? await this.agent.trainingRollout(rollout.input as T, resources, rollout)
              : await this.agent.validationRollout(rollout.input as T, resources, rollout);
          await triggerHooks(this.hooks, 'onTraceEnd', traceCtx, this.logger, prefix);
          return result;
        },
      );
      spans = await postProcessRolloutResult(
        {
          store: this.store,
          rollout,
          lastTrace,
          tracerExportsOtel: this.tracer instanceof LightningTracer,
          logger: this.logger,
          prefix,
        },
        value,
      );
      const seconds = ((performance.now() - started) / 1000).toFixed(2);
      this.log(
        'info',
        `${prefix} Completed in ${seconds}s. Collected ${spans.length} span(s). ` +
          `Final reward: ${safeFinalReward(spans)}`,
      );
    } catch (error) {
      failure = { error };
      this.logger.error(`${prefix} Exception during rollout.`, error);
    } finally {
      await triggerHooks(this.hooks, 'onRolloutEnd', { ...ctx, spans }, this.logger, prefix);
    }
    const outcome = outcomeOf(rollout, failure);
    if (defer) return outcome;
    await this.sendOutcome(outcome, prefix);
    if (failure && raise) throw failure.error;
    return null;
  }

  /** By `resources_id` (unknown → `NotFoundError`), else the latest; no resources at all → `{}`. */
  private async fetchResources(rollout: AttemptedRollout): Promise<NamedResources> {
    const update = rollout.resources_id
      ? await this.store.getResourcesById(rollout.resources_id)
      : await this.store.getLatestResources();
    return resourcesOf(rollout, update);
  }

  /** `updateAttempt` with the outcome; a failure is logged, never thrown. */
  private async sendOutcome(outcome: AttemptOutcome, prefix: string): Promise<void> {
    const { rollout_id, attempt_id, status, metadata } = outcome;
    try {
      await this.store.updateAttempt(rollout_id, attempt_id, {
        status,
        ...(metadata ? { metadata } : {}),
      });
    } catch (error) {
      this.logger.error(`${prefix} Could not update the attempt; giving up the update.`, error);
    }
  }

  private prefix(rolloutId?: string): string {
    return rolloutId ? `[${this.workerId} | Rollout ${rolloutId}]` : `[${this.workerId}]`;
  }

  private log(level: 'info' | 'debug', message: string): void {
    this.logger[level]?.(message);
  }
}

type RunnerCycle = (params: RunnerCycleParams) => Promise<RunnerCycleResult>;

/** The store's `runnerCycle` (LightningStoreClient has one), bound; `null` for stores without it. */
function runnerCycleOf(store: LightningStore): RunnerCycle | null {
  const candidate = (store as { runnerCycle?: unknown }).runnerCycle;
  return typeof candidate === 'function' ? (candidate.bind(store) as RunnerCycle) : null;
}

/** The resources of a fetched update: unknown `resources_id` → `NotFoundError`; no resources at all → `{}`. */
function resourcesOf(
  rollout: AttemptedRollout,
  update: ResourcesUpdate | null | undefined,
): NamedResources {
  if (rollout.resources_id && !update) {
    throw new NotFoundError(
      `rollout ${rollout.rollout_id}: resources ${rollout.resources_id} not found`,
    );
  }
  return update?.resources ?? {};
}

/** What a finished attempt is updated with: `succeeded`, or `failed` with the error in its metadata. */
function outcomeOf(rollout: AttemptedRollout, failure: { error: unknown } | null): AttemptOutcome {
  const ids = { rollout_id: rollout.rollout_id, attempt_id: rollout.attempt.attempt_id };
  if (!failure) return { ...ids, status: 'succeeded' };
  const metadata = { ...(rollout.attempt.metadata ?? {}), error: describeError(failure.error) };
  return { ...ids, status: 'failed', metadata };
}

function safeFinalReward(spans: Span[]): string {
  try {
    return String(findFinalReward(spans));
  } catch {
    return 'unreadable';
  }
}
