import type { AttemptedRollout, Span } from '@arclight/core';
import type { LitAgent } from './lit-agent.js';
import type { RunnerLogger } from './logger.js';
import type { RunnerTracer } from './runner-tracer.js';

/** The runner as hooks see it. */
export interface HookRunner {
  readonly workerId: string;
  readonly tracer: RunnerTracer;
}

export interface RolloutHookContext {
  agent: LitAgent<unknown>;
  runner: HookRunner;
  rollout: AttemptedRollout;
}

export interface TraceHookContext extends RolloutHookContext {
  tracer: RunnerTracer;
}

export interface RolloutEndHookContext extends RolloutHookContext {
  /** The rollout's spans as recorded by the runner (empty when the rollout failed). */
  spans: Span[];
}

/**
 * Callbacks around each rollout (upstream `Hook`). Order per rollout: `onRolloutStart` → (trace context
 * opens) `onTraceStart` → the agent → `onTraceEnd` → (trace context closes, result recorded) `onRolloutEnd`
 * → the attempt is marked succeeded/failed. `onTraceEnd` is skipped when the agent throws; `onRolloutEnd`
 * always runs. A hook that throws is logged and never fails the rollout.
 */
export interface Hook {
  onRolloutStart?(ctx: RolloutHookContext): void | Promise<void>;
  onTraceStart?(ctx: TraceHookContext): void | Promise<void>;
  onTraceEnd?(ctx: TraceHookContext): void | Promise<void>;
  onRolloutEnd?(ctx: RolloutEndHookContext): void | Promise<void>;
}

export type HookName = keyof Hook;

/** Calls `name` on every hook in order; exceptions are logged and swallowed. */
export async function triggerHooks<K extends HookName>(
  hooks: readonly Hook[],
  name: K,
  ctx: Parameters<NonNullable<Hook[K]>>[0],
  logger: RunnerLogger,
  prefix: string,
): Promise<void> {
  for (const hook of hooks) {
    const fn = hook[name] as ((ctx: unknown) => void | Promise<void>) | undefined;
    if (typeof fn !== 'function') continue;
    try {
      await fn.call(hook, ctx);
    } catch (error) {
      logger.error(`${prefix} Exception in ${name} hook.`, error);
    }
  }
}
