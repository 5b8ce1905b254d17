import type { AttemptedRollout, NamedResources } from '@arclight/core';
import type { RolloutRawResult } from './rollout-result.js';
import type { RunnerTracer } from './runner-tracer.js';

/** What an agent can reach of the runner executing it. */
export interface AgentRunnerRef {
  readonly tracer: RunnerTracer;
  readonly workerId: string;
}

/**
 * Base class of agents (upstream `LitAgent`). Implement `rollout` — or `trainingRollout` and
 * `validationRollout` separately (both default to `rollout`). Each receives the task (the rollout's `input`),
 * the resources of the rollout (by its `resources_id`, else the latest), and the rollout with its attempt.
 *
 * The return value tells the runner what to record (see `RolloutRawResult`): nothing (the tracer's spans),
 * a final reward, or spans.
 */
export abstract class LitAgent<T = unknown> {
  private runnerRef: AgentRunnerRef | null = null;

  /** Runs one rollout; used for every mode unless `trainingRollout`/`validationRollout` are overridden. */
  rollout(
    _task: T,
    _resources: NamedResources,
    _rollout: AttemptedRollout,
  ): Promise<RolloutRawResult> {
    return Promise.reject(
      new Error(
        `${this.constructor.name}: agents must implement rollout(task, resources, rollout)`,
      ),
    );
  }

  /** Rollouts whose mode is `"train"`. Defaults to {@link rollout}. */
  trainingRollout(
    task: T,
    resources: NamedResources,
    rollout: AttemptedRollout,
  ): Promise<RolloutRawResult> {
    return this.rollout(task, resources, rollout);
  }

  /** Every other rollout (`"val"`, `"test"` or no mode), as upstream. Defaults to {@link rollout}. */
  validationRollout(
    task: T,
    resources: NamedResources,
    rollout: AttemptedRollout,
  ): Promise<RolloutRawResult> {
    return this.rollout(task, resources, rollout);
  }

  /**
   * Called by a runner that starts executing this agent. Several runners of one process may share an agent;
   * `runner` is then the one attached last (they share the tracer).
   */
  setRunner(runner: AgentRunnerRef | null): void {
    this.runnerRef = runner;
  }

  /** The runner executing this agent; throws when none is attached. */
  get runner(): AgentRunnerRef {
    if (!this.runnerRef)
      throw new Error(`${this.constructor.name}: no runner is attached to this agent`);
    return this.runnerRef;
  }

  /** The tracer of the runner executing this agent. */
  get tracer(): RunnerTracer {
    return this.runner.tracer;
  }
}
