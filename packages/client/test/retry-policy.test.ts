import { NotFoundError, StoreClosedError, StoreError, ValidationError } from '@arclight/core';
import { afterEach, describe, expect, it } from 'vitest';
import { LightningStoreClient } from '../src/index.js';
import { closedPort, FakeServer } from './support/fake-server.js';
import { attemptedRolloutJson, page, rolloutJson } from './support/wire-fixtures.js';

const SEARCH = '/v1/agl/rollouts/search';
const HEALTH = '/v1/agl/health';
const DEQUEUE = '/v1/agl/queues/rollouts/dequeue';

let server: FakeServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Short delays so retries happen quickly; the policy is the same as with the defaults. */
const fast = { retryDelays: [0.01, 0.02, 0.03], healthRetryDelays: [0.01, 0.01] };

describe('retry policy', () => {
  it('retries a 500 after a healthy probe and returns the later success', async () => {
    server = await FakeServer.start((request, index) => {
      if (request.path === SEARCH) {
        return index === 0
          ? { status: 500, json: { detail: 'Internal server error', error_type: 'RuntimeError' } }
          : { status: 200, json: page([rolloutJson('ro-1')]) };
      }
      return undefined;
    });
    const client = new LightningStoreClient(server.url, fast);
    const result = await client.queryRollouts();
    expect(result.items.map((r) => r.rollout_id)).toEqual(['ro-1']);
    expect(server.trail()).toEqual([`POST ${SEARCH}`, `GET ${HEALTH}`, `POST ${SEARCH}`]);
  });

  it('gives up after the last retry with a StoreError carrying the server detail', async () => {
    server = await FakeServer.start((request) =>
      request.path === SEARCH ? { status: 503, json: { detail: 'store is closed' } } : undefined,
    );
    const client = new LightningStoreClient(server.url, fast);
    const error = await client.queryRollouts().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect(error).not.toBeInstanceOf(NotFoundError);
    expect((error as Error).message).toContain('store is closed');
    expect(server.to(SEARCH)).toHaveLength(4);
    expect(server.to(HEALTH)).toHaveLength(3);
  });

  it('does not retry when the health probe never succeeds', async () => {
    server = await FakeServer.start((request) => {
      if (request.path === SEARCH) return { status: 502, json: { detail: 'bad gateway' } };
      if (request.path === HEALTH) return { status: 503, json: { detail: 'starting' } };
      return undefined;
    });
    const client = new LightningStoreClient(server.url, fast);
    await expect(client.queryRollouts()).rejects.toThrow('bad gateway');
    expect(server.to(SEARCH)).toHaveLength(1);
    // One probe per health delay plus a final one, as upstream.
    expect(server.to(HEALTH)).toHaveLength(3);
  });

  it('retries a 408 like a server error', async () => {
    server = await FakeServer.start((request, index) => {
      if (request.path !== SEARCH) return undefined;
      return index === 0
        ? { status: 408, json: { detail: 'timeout' } }
        : { status: 200, json: page([]) };
    });
    const client = new LightningStoreClient(server.url, fast);
    await expect(client.queryRollouts()).resolves.toMatchObject({ items: [], total: 0 });
    expect(server.to(SEARCH)).toHaveLength(2);
  });

  it.each([
    [400, ValidationError],
    [422, ValidationError],
    [404, NotFoundError],
  ])('raises %i immediately as a typed error, never retried', async (status, errorClass) => {
    server = await FakeServer.start((request) =>
      request.path === '/v1/agl/rollouts/ro-x'
        ? { status, json: { detail: 'rollout ro-x: nope' } }
        : undefined,
    );
    const client = new LightningStoreClient(server.url, fast);
    const error = await client.updateRollout('ro-x', { status: 'failed' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(errorClass);
    expect((error as Error).message).toBe('rollout ro-x: nope');
    expect(server.trail()).toEqual(['POST /v1/agl/rollouts/ro-x']);
  });

  it('raises other 4xx as a plain StoreError with the detail, never retried', async () => {
    server = await FakeServer.start((request) =>
      request.path === SEARCH
        ? { status: 401, json: { detail: 'missing or invalid token' } }
        : undefined,
    );
    const client = new LightningStoreClient(server.url, fast);
    const error = await client.queryRollouts().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect(error).not.toBeInstanceOf(ValidationError);
    expect(error).not.toBeInstanceOf(NotFoundError);
    expect((error as Error).message).toBe('missing or invalid token');
    expect(server.to(SEARCH)).toHaveLength(1);
  });

  it('bounds a request by requestTimeout and retries it', async () => {
    server = await FakeServer.start((request, index) => {
      if (request.path !== SEARCH) return undefined;
      return index === 0 ? 'hang' : { status: 200, json: page([rolloutJson('ro-2')]) };
    });
    const client = new LightningStoreClient(server.url, { ...fast, requestTimeout: 0.2 });
    const result = await client.queryRollouts();
    expect(result.items.map((r) => r.rollout_id)).toEqual(['ro-2']);
    expect(server.to(SEARCH)).toHaveLength(2);
  });

  it('reports a timeout when no retry is left', async () => {
    server = await FakeServer.start((request) => (request.path === SEARCH ? 'hang' : undefined));
    const client = new LightningStoreClient(server.url, { retryDelays: [], requestTimeout: 0.2 });
    const error = await client.queryRollouts().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect((error as Error).message).toMatch(/POST \/v1\/agl\/rollouts\/search.*timed out/);
    expect(server.to(SEARCH)).toHaveLength(1);
  });

  it('reports an unreachable server after retrying', async () => {
    const port = await closedPort();
    const client = new LightningStoreClient(`http://127.0.0.1:${port}`, {
      retryDelays: [0.01],
      healthRetryDelays: [],
    });
    const error = await client.queryRollouts().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect((error as Error).message).toContain('request failed');
  });
});

describe('dequeue', () => {
  it('returns null / [] when the server is not reachable, without retrying', async () => {
    const port = await closedPort();
    const client = new LightningStoreClient(`http://127.0.0.1:${port}`, fast);
    await expect(client.dequeueRollout({ worker_id: 'w' })).resolves.toBeNull();
    await expect(client.dequeueManyRollouts({ limit: 3 })).resolves.toEqual([]);
  });

  it('returns null on a server error after a single request', async () => {
    server = await FakeServer.start((request) =>
      request.path === DEQUEUE ? { status: 500, json: { detail: 'boom' } } : undefined,
    );
    const client = new LightningStoreClient(server.url, fast);
    await expect(client.dequeueRollout()).resolves.toBeNull();
    expect(server.trail()).toEqual([`POST ${DEQUEUE}`]);
  });

  it('sends limit and worker_id and parses the attempted rollouts', async () => {
    server = await FakeServer.start((request) =>
      request.path === DEQUEUE
        ? { status: 200, json: [attemptedRolloutJson('ro-1', 'at-1')] }
        : undefined,
    );
    const client = new LightningStoreClient(server.url, fast);
    const got = await client.dequeueRollout({ worker_id: 'worker-7' });
    expect(got?.attempt.attempt_id).toBe('at-1');
    expect(JSON.parse(server.to(DEQUEUE)[0]!.body)).toEqual({ limit: 1, worker_id: 'worker-7' });
  });

  it('still raises a validation error (4xx) instead of hiding it', async () => {
    server = await FakeServer.start((request) =>
      request.path === DEQUEUE
        ? { status: 400, json: { detail: 'limit: must be >= 1' } }
        : undefined,
    );
    const client = new LightningStoreClient(server.url, fast);
    await expect(client.dequeueManyRollouts({ limit: -5 })).rejects.toBeInstanceOf(ValidationError);
  });
});

describe('client lifecycle and headers', () => {
  it('sends the bearer token', async () => {
    server = await FakeServer.start((request) =>
      request.path === SEARCH ? { status: 200, json: page([]) } : undefined,
    );
    const client = new LightningStoreClient(`${server.url}/`, { ...fast, token: 's3cret' });
    await client.queryRollouts();
    expect(server.to(SEARCH)[0]!.headers.authorization).toBe('Bearer s3cret');
  });

  it('refuses new calls after close()', async () => {
    server = await FakeServer.start(() => undefined);
    const client = new LightningStoreClient(server.url, fast);
    await client.close();
    await expect(client.queryRollouts()).rejects.toBeInstanceOf(StoreClosedError);
    await expect(client.dequeueRollout()).rejects.toBeInstanceOf(StoreClosedError);
    expect(server.requests).toHaveLength(0);
  });

  it('rejects bad options', () => {
    expect(() => new LightningStoreClient('http://x', { retryDelays: [-1] })).toThrow(
      'retryDelays',
    );
    expect(() => new LightningStoreClient('http://x', { requestTimeout: 0 })).toThrow(
      'requestTimeout',
    );
  });
});
