import type { Attempt } from '@arclight/core';
import { LightningTracer } from '@arclight/otel';
import { InMemoryLightningStore } from '@arclight/store';
import type { RunnerLogger } from '../../src/index.js';

/** A store whose watchdog runs before every guarded call. */
export const newStore = (): InMemoryLightningStore =>
  new InMemoryLightningStore({ scanDebounceSeconds: 0 });

/** A tracer on `store` that stays out of the process-wide active slot and does not batch. */
export const newTracer = (store: InMemoryLightningStore): LightningTracer =>
  new LightningTracer({ store, activate: false, scheduledDelayMillis: 0, logger: null });

/** A logger that keeps every message. */
export class MemoryLogger implements RunnerLogger {
  readonly lines: string[] = [];
  readonly errors: unknown[] = [];
  info(message: string): void {
    this.lines.push(`info ${message}`);
  }
  warn(message: string): void {
    this.lines.push(`warn ${message}`);
  }
  error(message: string, error?: unknown): void {
    this.lines.push(`error ${message}`);
    if (error !== undefined) this.errors.push(error);
  }
}

/** Fast runner timings for tests. */
export const FAST = { pollInterval: 0.02, intervalJitter: 0, heartbeatInterval: 0 } as const;

/** Polls `check` every 20 ms until it returns a truthy value; fails after `seconds` (a generous bound). */
export async function eventually<T>(
  check: () => Promise<T | null | undefined | false> | T | null | undefined | false,
  what: string,
  seconds = 30,
): Promise<T> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export async function attemptsOf(
  store: InMemoryLightningStore,
  rolloutId: string,
): Promise<Attempt[]> {
  return (await store.queryAttempts(rolloutId)).items;
}
