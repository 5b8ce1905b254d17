import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NotFoundError, PromptTemplate, ValidationError } from '@arclight/core';
import { InMemoryLightningStore, type LightningStore, SqliteLightningStore } from '@arclight/store';
import { afterEach, describe, expect, it } from 'vitest';
import type { LightningStoreClient } from '../src/index.js';
import { serve } from './support/served-store.js';

const clients: LightningStoreClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

async function servedClient(extensions?: boolean) {
  const store = new InMemoryLightningStore({ scanDebounceSeconds: 0 });
  const client = await serve(store, {
    retryDelays: [0.05],
    healthRetryDelays: [0.05],
    ...(extensions === undefined ? {} : { extensions }),
  });
  clients.push(client);
  return { store, client };
}

describe('LightningStoreClient.runnerCycle against an Arclight server', () => {
  it('finishes the previous attempt, dequeues the next rollout and brings its resources in one request', async () => {
    const { store, client } = await servedClient();
    expect([...(await client.serverExtensions())]).toEqual(['runner-cycle']);
    const resources = await store.addResources({
      prompt: new PromptTemplate({ template: 'hi {x}', engine: 'f-string' }),
    });
    const [first, second] = await store.enqueueManyRollouts([{ input: 1 }, { input: 2 }]);

    const one = await client.runnerCycle({ worker_id: 'w' });
    expect(one.extension).toBe(true);
    expect(one.rollout?.rollout_id).toBe(first!.rollout_id);
    expect(one.resources?.resources_id).toBe(resources.resources_id);
    expect(one.resources?.resources.prompt).toBeInstanceOf(PromptTemplate);
    expect(one.finished).toBeNull();

    const two = await client.runnerCycle({
      worker_id: 'w',
      finish: {
        rollout_id: one.rollout!.rollout_id,
        attempt_id: one.rollout!.attempt.attempt_id,
        status: 'failed',
        metadata: { error: { type: 'Error', message: 'boom' } },
      },
    });
    expect(two.finished).toMatchObject({
      status: 'failed',
      metadata: { error: { message: 'boom' } },
    });
    expect(two.finishError).toBeNull();
    expect(two.rollout?.rollout_id).toBe(second!.rollout_id);
    expect((await store.getRolloutById(first!.rollout_id))?.status).toBe('failed');
    expect(await store.getWorkerById('w')).toMatchObject({
      status: 'busy',
      current_rollout_id: second!.rollout_id,
    });

    const three = await client.runnerCycle({
      worker_id: 'w',
      finish: {
        rollout_id: second!.rollout_id,
        attempt_id: two.rollout!.attempt.attempt_id,
        status: 'succeeded',
      },
    });
    expect(three.rollout).toBeNull();
    expect(three.resources).toBeNull();
    expect((await store.getWorkerById('w'))?.status).toBe('idle');
    expect((await store.getRolloutById(second!.rollout_id))?.status).toBe('succeeded');
  });

  it('brings a rollout the resources it is pinned to, or the latest when it has none (memory and SQLite)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'arclight-cycle-resources-'));
    try {
      for (const store of [
        new InMemoryLightningStore(),
        new SqliteLightningStore({ path: join(dir, 'store.sqlite') }),
      ]) {
        const client = await serve(store, { retryDelays: [], healthRetryDelays: [] });
        const [unpinned] = await store.enqueueManyRollouts([{ input: 'before any resources' }]);
        const older = await store.addResources({
          prompt: new PromptTemplate({ template: 'old', engine: 'f-string' }),
        });
        const [pinned] = await store.enqueueManyRollouts([{ input: 'pinned' }]);
        expect(pinned!.resources_id).toBe(older.resources_id);
        const latest = await store.addResources({
          prompt: new PromptTemplate({ template: 'new', engine: 'f-string' }),
        });

        const one = await client.runnerCycle({ worker_id: 'w' });
        expect(one.rollout?.rollout_id).toBe(unpinned!.rollout_id);
        expect(one.resources?.resources_id).toBe(latest.resources_id);
        const two = await client.runnerCycle({ worker_id: 'w' });
        expect(two.rollout?.rollout_id).toBe(pinned!.rollout_id);
        expect(two.resources?.resources_id).toBe(older.resources_id);
        expect(two.resources?.resources.prompt).toBeInstanceOf(PromptTemplate);
        expect(two.resources?.resources.prompt).toMatchObject({ template: 'old' });
        await client.close(); // also stops the server and closes the store
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('applies the outcome before the dequeue, whether the store takes the calls together or in turn', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'arclight-cycle-'));
    const log: string[] = [];
    const stores: LightningStore[] = [
      new SqliteLightningStore({ path: join(dir, 'store.sqlite') }), // together: one group commit
      awaitedInTurn(new InMemoryLightningStore(), log),
    ];
    try {
      for (const store of stores) {
        const client = await serve(store, { retryDelays: [], healthRetryDelays: [] });
        clients.push(client);
        const [first, second] = await store.enqueueManyRollouts([{ input: 1 }, { input: 2 }]);
        const one = await client.runnerCycle({ worker_id: 'w' });
        const two = await client.runnerCycle({
          worker_id: 'w',
          finish: {
            rollout_id: first!.rollout_id,
            attempt_id: one.rollout!.attempt.attempt_id,
            status: 'succeeded',
          },
        });
        expect(two.finished?.status).toBe('succeeded');
        expect(two.rollout?.rollout_id).toBe(second!.rollout_id);
        expect((await store.getRolloutById(first!.rollout_id))?.status).toBe('succeeded');
        expect(await store.getWorkerById('w')).toMatchObject({
          current_rollout_id: second!.rollout_id,
        });
      }
      // The store without appliesCallsInOrder saw the outcome settle before the dequeue started.
      expect(log).toEqual(['dequeue', 'finish', 'finish settled', 'dequeue']);
    } finally {
      await Promise.all(stores.map((store) => store.close()));
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reports a finish the store refuses in finishError and still dequeues', async () => {
    const { store, client } = await servedClient();
    const queued = await store.enqueueRollout({ input: 1 });
    const turn = await client.runnerCycle({
      worker_id: 'w',
      finish: { rollout_id: 'ro-unknown', attempt_id: 'at-unknown', status: 'succeeded' },
    });
    expect(turn.finishError).toBeInstanceOf(NotFoundError);
    expect(turn.finishError?.message).toMatch(/ro-unknown/);
    expect(turn.rollout?.rollout_id).toBe(queued.rollout_id);
  });

  it('rejects a malformed turn with a ValidationError naming the field', async () => {
    const { client } = await servedClient();
    await expect(
      client.runnerCycle({
        worker_id: 'w',
        finish: { rollout_id: 'ro-1', attempt_id: 'at-1', status: 'done' as 'succeeded' },
      }),
    ).rejects.toThrow(ValidationError);
    await expect(
      client.runnerCycle({
        worker_id: 'w',
        finish: { rollout_id: 'ro-1', attempt_id: 'at-1', status: 'done' as 'succeeded' },
      }),
    ).rejects.toThrow(/finish\.status/);
  });

  it('with extensions: false uses the v0.x routes and leaves resources to the caller', async () => {
    const { store, client } = await servedClient(false);
    expect((await client.serverExtensions()).size).toBe(0);
    const queued = await store.enqueueRollout({ input: 1 });
    const turn = await client.runnerCycle({ worker_id: 'w' });
    expect(turn).toMatchObject({ extension: false, finished: null, finishError: null });
    expect(turn.resources).toBeUndefined();
    expect(turn.rollout?.rollout_id).toBe(queued.rollout_id);
    const done = await client.runnerCycle({
      worker_id: 'w',
      finish: {
        rollout_id: queued.rollout_id,
        attempt_id: turn.rollout!.attempt.attempt_id,
        status: 'succeeded',
      },
      dequeue: false,
    });
    expect(done.finished?.status).toBe('succeeded');
    expect(done.rollout).toBeNull();
    expect((await store.getRolloutById(queued.rollout_id))?.status).toBe('succeeded');
  });
});

/** `inner` as a store whose calls must be awaited in turn (like PostgreSQL's), with a slow updateAttempt. */
function awaitedInTurn(inner: InMemoryLightningStore, log: string[]): LightningStore {
  return new Proxy(inner, {
    get(target, key) {
      if (key === 'appliesCallsInOrder') return false;
      if (key === 'updateAttempt') {
        return async (...args: Parameters<LightningStore['updateAttempt']>) => {
          log.push('finish');
          await new Promise((resolve) => setTimeout(resolve, 20));
          const attempt = await target.updateAttempt(...args);
          log.push('finish settled');
          return attempt;
        };
      }
      if (key === 'dequeueRollout') {
        return (...args: Parameters<LightningStore['dequeueRollout']>) => {
          log.push('dequeue');
          return target.dequeueRollout(...args);
        };
      }
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
