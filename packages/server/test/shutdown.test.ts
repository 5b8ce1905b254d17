import { InMemoryLightningStore, type LightningStore } from '@arclight/store';
import { describe, expect, it } from 'vitest';
import { createLightningStoreServer } from '../src/index.js';

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** Delays `startRollout` until released, to hold a write request in flight. */
function gatedStore(): { store: LightningStore; entered: Promise<void>; release: () => void } {
  const store = new InMemoryLightningStore();
  const entered = deferred();
  const gate = deferred();
  const original = store.startRollout.bind(store);
  store.startRollout = async (params) => {
    entered.resolve();
    await gate.promise;
    return original(params);
  };
  return { store, entered: entered.promise, release: () => gate.resolve() };
}

describe('graceful close', () => {
  it('finishes an in-flight write, refuses new connections, then resolves', async () => {
    const { store, entered, release } = gatedStore();
    const server = createLightningStoreServer(store, { port: 0 });
    const url = await server.listen();

    const inFlight = fetch(`${url}/v1/agl/rollouts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ input: 'in flight' }),
    });
    await entered;

    let closed = false;
    const closing = server.close().then(() => {
      closed = true;
    });
    await expect(fetch(`${url}/v1/agl/health`)).rejects.toThrow();
    expect(closed).toBe(false);

    release();
    const res = await inFlight;
    expect(res.status).toBe(201);
    expect(((await res.json()) as { input: unknown }).input).toBe('in flight');
    await closing;
    expect(closed).toBe(true);
    expect((await store.queryRollouts()).total).toBe(1);
    await store.close();
  });

  it('answers pending waits/rollouts long-polls instead of hanging the close', async () => {
    const store = new InMemoryLightningStore();
    const rollout = await store.startRollout({ input: 1 });
    const waitEntered = deferred();
    const original = store.waitForRollouts.bind(store);
    store.waitForRollouts = (params) => {
      if (params.timeout == null) waitEntered.resolve();
      return original(params);
    };
    const server = createLightningStoreServer(store, { port: 0 });
    const url = await server.listen();
    const waiting = fetch(`${url}/v1/agl/waits/rollouts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ rollout_ids: [rollout.rollout_id] }),
    });
    await waitEntered.promise;
    await server.close();
    const res = await waiting;
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([]);
    await store.close();
  });

  it('refuses a drainTimeoutMs that is not a non-negative integer', () => {
    const store = new InMemoryLightningStore();
    for (const drainTimeoutMs of [-1, 1.5, Number.NaN]) {
      expect(() => createLightningStoreServer(store, { drainTimeoutMs })).toThrow(/drainTimeoutMs/);
    }
  });

  it('close() is idempotent and listen() reports EADDRINUSE for a taken port', async () => {
    const store = new InMemoryLightningStore();
    const first = createLightningStoreServer(store, { port: 0 });
    const url = await first.listen();
    const port = Number(new URL(url).port);
    const second = createLightningStoreServer(store, { port });
    await expect(second.listen()).rejects.toMatchObject({ code: 'EADDRINUSE' });
    await second.close();
    await Promise.all([first.close(), first.close()]);
    await store.close();
  });
});
