import type { LightningStore } from '@arclight/store';
import type { RunnerLogger } from './logger.js';
import { interruptibleSleep, jittered, withTimeout } from './sleep.js';
import { systemSnapshot } from './system-snapshot.js';

export interface HeartbeatOptions {
  store: LightningStore;
  workerId: string;
  /** Seconds between heartbeats (± `jitter`). */
  interval: number;
  jitter: number;
  logger: RunnerLogger;
  prefix: string;
  /** Replaces the system snapshot (tests). */
  snapshot?: () => Record<string, unknown>;
}

/**
 * Sends `updateWorker(workerId, { heartbeat_stats: systemSnapshot() })` at once and then every
 * `interval ± jitter` seconds until stopped (upstream's heartbeat loop). A heartbeat that takes longer than
 * `interval` is abandoned; failures are logged and never stop the loop. Returns the stopper.
 */
export function startHeartbeat(options: HeartbeatOptions): () => Promise<void> {
  const stop = new AbortController();
  const take = options.snapshot ?? systemSnapshot;
  const loop = (async () => {
    while (!stop.signal.aborted) {
      try {
        const sent = options.store.updateWorker(options.workerId, { heartbeat_stats: take() });
        sent.catch(() => {}); // an abandoned heartbeat may still fail later
        const outcome = await withTimeout(sent, options.interval, 'timeout' as const);
        if (outcome === 'timeout') {
          options.logger.warn(
            `${options.prefix} Heartbeat timed out after ${options.interval}s; skipping it.`,
          );
        }
      } catch (error) {
        options.logger.warn(`${options.prefix} Heartbeat failed: ${String(error)}`);
      }
      await interruptibleSleep(jittered(options.interval, options.jitter), stop.signal);
    }
  })();
  return async () => {
    stop.abort();
    await loop;
  };
}
