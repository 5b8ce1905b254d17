import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { createLightningStoreServer } from '@arclight/server';
import { afterEach, describe, expect, it } from 'vitest';
import { Runner, rollout } from '../src/index.js';
import {
  attemptsOf,
  eventually,
  FAST,
  MemoryLogger,
  newStore,
  newTracer,
} from './support/harness.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

describe('retries through the store watchdog', () => {
  it('a hanging attempt is timed out (timeout_seconds) and requeued; attempt 2 succeeds on another runner', async () => {
    const store = newStore();
    const tracer = newTracer(store);
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const agent = rollout(async (_task, { rollout: r }) => {
      if (r.attempt.sequence_id === 1) {
        await released; // hangs until the test is over
        throw new Error('released after the timeout');
      }
      return 1;
    });
    const runners = [0, 1].map(
      (workerId) =>
        new Runner({ agent, store, tracer, workerId, logger: new MemoryLogger(), ...FAST }),
    );
    const controller = new AbortController();
    const loops = runners.map((runner) => runner.iter({ signal: controller.signal }));
    closers.push(async () => {
      controller.abort();
      release();
      await Promise.all(loops);
      await tracer.shutdown();
      await store.close();
    });

    const { rollout_id } = await store.enqueueRollout({
      input: 'slow',
      config: { timeout_seconds: 0.3, max_attempts: 2, retry_condition: ['timeout'] },
    });
    const [finished] = await store.waitForRollouts({ rollout_ids: [rollout_id], timeout: 30 });
    expect(finished?.status).toBe('succeeded');
    const attempts = await attemptsOf(store, rollout_id);
    expect(attempts.map((a) => a.status)).toEqual(['timeout', 'succeeded']);
    expect(attempts[0]!.worker_id).not.toBe(attempts[1]!.worker_id);
    const spans = (await store.querySpans(rollout_id, { attempt_id: 'latest' })).items;
    expect(spans.map((s) => s.attributes['agentlightning.reward.0.value'])).toEqual([1]);
  });

  it('without retries left the timed-out rollout fails', async () => {
    const store = newStore();
    const tracer = newTracer(store);
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const agent = rollout(async () => {
      await released;
    });
    const runner = new Runner({ agent, store, tracer, logger: null, ...FAST });
    const controller = new AbortController();
    const loop = runner.iter({ signal: controller.signal });
    closers.push(async () => {
      controller.abort();
      release();
      await loop;
      await tracer.shutdown();
      await store.close();
    });
    const { rollout_id } = await store.enqueueRollout({
      input: 'slow',
      config: { timeout_seconds: 0.2, max_attempts: 1, retry_condition: ['timeout'] },
    });
    // The watchdog runs lazily: any guarded store call (here: the wait itself) drives it.
    const failed = await eventually(async () => {
      const [r] = await store.waitForRollouts({ rollout_ids: [rollout_id], timeout: 0 });
      return r;
    }, 'the rollout to fail');
    expect(failed.status).toBe('failed');
    expect((await attemptsOf(store, rollout_id)).map((a) => a.status)).toEqual(['timeout']);
  });

  it('a runner process killed mid-rollout leaves an unresponsive attempt; another runner retries the rollout', async () => {
    const store = newStore();
    const server = createLightningStoreServer(store, { port: 0 });
    const url = await server.listen();
    let child: ChildProcess | null = null;
    closers.push(async () => {
      if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await server.close();
      await store.close();
    });

    const { rollout_id } = await store.enqueueRollout({
      input: 'work',
      config: { unresponsive_seconds: 1, max_attempts: 2, retry_condition: ['unresponsive'] },
    });
    const fixture = fileURLToPath(new URL('./fixtures/hanging-runner.mjs', import.meta.url));
    const proc = spawn(process.execPath, [fixture], {
      env: { ...process.env, STORE_URL: url },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child = proc;
    let output = '';
    proc.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    await eventually(() => output.includes(`STARTED ${rollout_id}`), 'the runner process to start');
    const first = await store.getLatestAttempt(rollout_id);
    expect(first?.worker_id).toBe('Worker-doomed');
    expect(['running', 'unresponsive']).toContain(first?.status);

    proc.kill('SIGKILL');
    await once(proc, 'exit');
    expect(proc.signalCode).toBe('SIGKILL');

    const tracer = newTracer(store);
    const survivor = new Runner({
      agent: rollout(async () => 0.5),
      store,
      tracer,
      workerId: 'Worker-survivor',
      maxRollouts: 1,
      logger: null,
      ...FAST,
    });
    expect(await survivor.iter({ signal: AbortSignal.timeout(60_000) })).toBe(1);
    await tracer.shutdown();

    const attempts = await attemptsOf(store, rollout_id);
    expect(attempts.map((a) => [a.status, a.worker_id])).toEqual([
      ['unresponsive', 'Worker-doomed'],
      ['succeeded', 'Worker-survivor'],
    ]);
    expect((await store.getRolloutById(rollout_id))?.status).toBe('succeeded');
    // The dead worker's heartbeats stopped with it.
    expect((await store.getWorkerById('Worker-doomed'))?.heartbeat_stats).toHaveProperty('host');
  });
});
