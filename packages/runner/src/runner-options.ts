import { ValidationError } from '@arclight/core';
import type { LightningStore } from '@arclight/store';
import type { Hook } from './hooks.js';
import type { LitAgent } from './lit-agent.js';
import type { RunnerLogger } from './logger.js';
import type { RunnerTracer } from './runner-tracer.js';

export interface RunnerOptions<T = unknown> {
  agent: LitAgent<T>;
  store: LightningStore;
  /**
   * Attributes the agent's spans to rollouts. Default: a `LightningTracer` on `store`, owned (and shut down
   * by `close()`) by the runner. Runners of one process may share a tracer.
   */
  tracer?: RunnerTracer;
  /** A number `n` becomes `"Worker-n"` (upstream's format); a string is used as is. Default 0. */
  workerId?: number | string;
  /** `iter()` returns after this many rollouts. Default: no limit. */
  maxRollouts?: number | null;
  /** Seconds between polls of an empty queue (± `intervalJitter`). Default 5. */
  pollInterval?: number;
  /** Seconds between worker heartbeats (± `intervalJitter`) during `iter()`; 0 disables. Default 10. */
  heartbeatInterval?: number;
  /** Uniform jitter, in seconds, added to poll and heartbeat intervals. Default 0.5. */
  intervalJitter?: number;
  hooks?: Hook | readonly Hook[];
  /** Progress and problems. Default: warnings and errors to the console; `null` silences. */
  logger?: RunnerLogger | null;
  /** Replaces the system snapshot sent with heartbeats (e.g. to add fields). */
  heartbeatStats?: () => Record<string, unknown>;
}

export function formatWorkerId(workerId: number | string | undefined): string {
  if (workerId === undefined) return 'Worker-0';
  if (typeof workerId === 'string') {
    if (workerId === '') throw new ValidationError('workerId: must not be empty');
    return workerId;
  }
  if (!Number.isInteger(workerId) || workerId < 0) {
    throw new ValidationError(
      `workerId: expected a non-negative integer or a string, got ${workerId}`,
    );
  }
  return `Worker-${workerId}`;
}

export function checkSeconds(name: string, value: number, allowZero = true): number {
  if (
    typeof value !== 'number' ||
    !Number.isFinite(value) ||
    value < 0 ||
    (!allowZero && value === 0)
  ) {
    throw new ValidationError(
      `${name}: expected a finite ${allowZero ? 'non-negative' : 'positive'} number of seconds, got ${String(value)}`,
    );
  }
  return value;
}

export function checkMaxRollouts(value: number | null | undefined): number | null {
  if (value === undefined || value === null) return null;
  if (!Number.isInteger(value) || value < 0) {
    throw new ValidationError(`maxRollouts: expected a non-negative integer, got ${String(value)}`);
  }
  return value;
}
