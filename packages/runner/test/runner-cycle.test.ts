import { createLightningStoreServer, type LightningStoreServer } from '@arclight/server';
import { InMemoryLightningStore } from '@arclight/store';
import { afterEach, describe, expect, it } from 'vitest';
import { Runner, rollout } from '../src/index.js';
import {
  countingClient,
  type RequestCounts,
  runScenario,
  SCENARIO_ROLLOUTS,
  storeOutcome,
} from './support/cycle-scenario.js';
import { eventually } from './support/harness.js';

const servers: LightningStoreServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function served(store: InMemoryLightningStore): Promise<string> {
  const server = createLightningStoreServer(store, { host: '127.0.0.1', port: 0 });
  servers.push(server);
  return server.listen();
}

/** The scenario run over HTTP against Arclight's server, with or without the extension. */
async function overHttp(extensions: boolean) {
  const store = new InMemoryLightningStore({ scanDebounceSeconds: 0 });
  const { client, counts } = countingClient(await served(store), { extensions });
  const seen = await runScenario(store, client);
  await client.close();
  return { seen, counts, outcome: await storeOutcome(store) };
}

const total = (counts: RequestCounts) => Object.values(counts).reduce((a, b) => a + b, 0);

describe('a runner over LightningStoreClient against an Arclight server', () => {
  it('takes one request per rollout (runner-cycle extension) and leaves the store as the v0.x calls do', async () => {
    const direct = new InMemoryLightningStore({ scanDebounceSeconds: 0 });
    const directSeen = await runScenario(direct, direct);
    const expected = await storeOutcome(direct);

    const extension = await overHttp(true);
    const v0 = await overHttp(false);

    // Same agent inputs and same store state: statuses, attempts, errors, worker bookkeeping, ordering.
    expect(extension.seen).toEqual(directSeen);
    expect(v0.seen).toEqual(directSeen);
    expect(extension.outcome).toEqual(expected);
    expect(v0.outcome).toEqual(expected);
    expect(expected).toMatchObject({
      sequential: true,
      rollouts: {
        0: { status: 'succeeded', attempts: [{ status: 'succeeded', worker_id: 'cycle-worker' }] },
        1: { status: 'failed', attempts: [{ error: { type: 'TypeError' } }] },
        2: {
          status: 'failed',
          attempts: [
            { error: { type: 'NotFoundError', message: expect.stringMatching(/rs-missing/) } },
          ],
        },
        3: { status: 'succeeded' },
      },
      worker: { status: 'idle', current_rollout_id: null, dequeued: true, idle: true },
    });
    expect(directSeen).toEqual({ 0: 'first 0', 1: 'first 1', 3: 'second 3' });

    // The extension: a capabilities probe, one cycle per rollout (outcome of the previous + dequeue +
    // resources), and the last outcome on its own when the runner stops.
    expect(extension.counts).toEqual({
      'GET /v1/agl/x-arclight/capabilities': 1,
      'POST /v1/agl/x-arclight/runner/cycle': SCENARIO_ROLLOUTS,
      'POST /v1/agl/rollouts/{id}/attempts/{id}': 1,
    });
    // The v0.x routes: dequeue, resources, attempt update per rollout.
    expect(v0.counts['POST /v1/agl/queues/rollouts/dequeue']).toBe(SCENARIO_ROLLOUTS);
    expect(v0.counts['GET /v1/agl/resources/rs-missing']).toBe(1);
    const resourceGets = Object.entries(v0.counts)
      .filter(([route]) => route.startsWith('GET /v1/agl/resources/'))
      .reduce((sum, [, n]) => sum + n, 0);
    expect(resourceGets).toBe(SCENARIO_ROLLOUTS);
    expect(v0.counts['POST /v1/agl/rollouts/{id}/attempts/{id}']).toBe(SCENARIO_ROLLOUTS);
    expect(total(v0.counts)).toBe(3 * SCENARIO_ROLLOUTS);
    expect(total(extension.counts)).toBe(SCENARIO_ROLLOUTS + 2);
  });

  it("sends a rollout's outcome with the next poll, so it is recorded while the queue stays empty", async () => {
    const store = new InMemoryLightningStore({ scanDebounceSeconds: 0 });
    const { client, counts } = countingClient(await served(store), {});
    const queued = await store.enqueueRollout({ input: 1 });
    const runner = new Runner({
      agent: rollout(async () => {}),
      store: client,
      workerId: 'poller',
      pollInterval: 0.02,
      intervalJitter: 0,
      heartbeatInterval: 0,
      logger: null,
    });
    const stop = new AbortController();
    const iterating = runner.iter({ signal: stop.signal });
    try {
      const done = await eventually(async () => {
        const r = await store.getRolloutById(queued.rollout_id);
        return r?.status === 'succeeded' ? r : null;
      }, 'the rollout to succeed while the runner polls');
      expect(done.status).toBe('succeeded');
      expect((await store.getWorkerById('poller'))?.status).toBe('idle');
      expect(counts['POST /v1/agl/rollouts/{id}/attempts/{id}']).toBeUndefined();
      expect(counts['POST /v1/agl/x-arclight/runner/cycle']).toBeGreaterThanOrEqual(2);
    } finally {
      stop.abort();
      await iterating;
      await runner.close();
      await client.close();
    }
  });
});
