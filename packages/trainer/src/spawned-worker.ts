import { LightningStoreClient, type LightningStoreClientOptions } from '@arclight/client';
import type { Logger } from '@arclight/core';
import { DEFAULT_SERVER_HOST, DEFAULT_SERVER_PORT, ENV, serverUrl } from './env.js';
import { READY_MESSAGE, STOP_MESSAGE } from './runner-processes.js';
import type { RunnerBundle } from './strategy.js';

/**
 * The body of a runner process started by a trainer: connects to the trainer's store server, runs one runner
 * until told to stop, and exits the process. It stops cooperatively on the parent's stop message or on
 * Ctrl+C (a second Ctrl+C exits at once), and when the parent vanishes (IPC disconnect) it stops and exits
 * within `ARCLIGHT_GRACEFUL_TIMEOUT` seconds, so no runner outlives its trainer.
 */
export async function runSpawnedWorker(
  workerId: number,
  runner: RunnerBundle,
  logger: Logger,
  clientOptions: LightningStoreClientOptions = {},
): Promise<never> {
  const host = process.env[ENV.SERVER_HOST] || DEFAULT_SERVER_HOST;
  const port = Number(process.env[ENV.SERVER_PORT] || DEFAULT_SERVER_PORT);
  const graceful = Number(process.env[ENV.GRACEFUL_TIMEOUT] ?? 10);
  const stop = new AbortController();

  process.on('message', (message: unknown) => {
    if ((message as { type?: unknown } | null)?.type === STOP_MESSAGE) stop.abort();
  });
  process.on('disconnect', () => {
    stop.abort();
    setTimeout(() => process.exit(1), (Number.isFinite(graceful) ? graceful : 10) * 1000).unref();
  });
  let interrupts = 0;
  process.on('SIGINT', () => {
    interrupts += 1;
    if (interrupts > 1) process.exit(130);
    stop.abort();
  });
  process.send?.({ type: READY_MESSAGE, workerId });

  const store = new LightningStoreClient(serverUrl(host, port), clientOptions);
  let code = 0;
  try {
    await runner(store, workerId, stop.signal);
  } catch (error) {
    logger.error(`[Worker-${workerId}] Runner crashed.`, error);
    code = 1;
  } finally {
    await store.close();
  }
  process.exit(code);
}
