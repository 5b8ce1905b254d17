import { describe, expect, it } from 'vitest';
import { harness } from './helpers.js';

const A = '/v1/agl';

async function seeded() {
  const h = await harness();
  const queued = (
    await h.call('POST', `${A}/queues/rollouts/enqueue`, {
      rollouts: [{ input: 'q1' }, { input: 'q2' }],
    })
  ).json;
  const started = (await h.call('POST', `${A}/rollouts`, { input: 'r1' })).json;
  const cancelled = (await h.call('POST', `${A}/rollouts`, { input: 'r2' })).json;
  await h.call('POST', `${A}/rollouts/${cancelled.rollout_id}`, { status: 'cancelled' });
  return { ...h, queued, started, cancelled };
}

describe('query parameters', () => {
  it('repeated keys are lists: status_in=a&status_in=b, rollout_id_in', async () => {
    const { call, queued, cancelled } = await seeded();
    const both = await call('GET', `${A}/rollouts?status_in=queuing&status_in=cancelled`);
    expect(both.status).toBe(200);
    expect(both.json.total).toBe(3);
    const statuses = new Set(both.json.items.map((r: { status: string }) => r.status));
    expect(statuses).toEqual(new Set(['queuing', 'cancelled']));

    const single = await call('GET', `${A}/rollouts?status_in=cancelled`);
    expect(single.json.items.map((r: { rollout_id: string }) => r.rollout_id)).toEqual([
      cancelled.rollout_id,
    ]);

    const ids = await call(
      'GET',
      `${A}/rollouts?rollout_id_in=${queued[0].rollout_id}&rollout_id_in=${cancelled.rollout_id}&sort_by=rollout_id`,
    );
    expect(ids.json.items.map((r: { rollout_id: string }) => r.rollout_id).sort()).toEqual(
      [queued[0].rollout_id, cancelled.rollout_id].sort(),
    );

    const or = await call(
      'GET',
      `${A}/rollouts?status_in=cancelled&rollout_id_contains=${queued[1].rollout_id}&filter_logic=or`,
    );
    expect(or.json.total).toBe(2);
  });

  it('worker status_in repeated keys', async () => {
    const { call } = await harness();
    await call('POST', `${A}/workers/w-unknown`, {});
    await call('POST', `${A}/queues/rollouts/dequeue`, { worker_id: 'w-idle' });
    const res = await call('GET', `${A}/workers?status_in=idle&status_in=busy`);
    expect(res.json.items.map((w: { worker_id: string }) => w.worker_id)).toEqual(['w-idle']);
  });

  it('an unknown status in status_in → 422 naming the field', async () => {
    const { call } = await harness();
    const res = await call('GET', `${A}/rollouts?status_in=queuing&status_in=bogus`);
    expect(res.status).toBe(422);
    expect(res.json.detail).toContain('query.status_in.1');
  });

  it('GET /spans without rollout_id → 422 naming rollout_id', async () => {
    const { call } = await harness();
    const res = await call('GET', `${A}/spans`);
    expect(res.status).toBe(422);
    expect(res.json.detail).toContain('rollout_id');
  });
});

describe('pagination validation → 400', () => {
  const cases: Array<[string, string]> = [
    ['limit=0', 'limit: must be greater than 0, or -1'],
    ['limit=-2', 'limit: must be greater than 0, or -1'],
    ['offset=-1', 'offset: must be greater than or equal to 0'],
    ['sort_by=bogus', 'Invalid sort_by: bogus'],
    ['sort_order=sideways', 'Invalid sort_order: sideways'],
    ['filter_logic=xor', 'Invalid filter_logic: xor'],
  ];
  it.each(cases)('GET /rollouts?%s', async (query, message) => {
    const { call } = await harness();
    const res = await call('GET', `${A}/rollouts?${query}`);
    expect(res.status).toBe(400);
    expect(res.json.detail).toContain(message);
  });

  it('applies to every paginated route, GET and search', async () => {
    const { call, started } = await seeded();
    const id = started.rollout_id;
    const requests: Array<[string, string, unknown?]> = [
      ['GET', `${A}/rollouts/${id}/attempts?limit=0`],
      ['POST', `${A}/rollouts/${id}/attempts/search`, { sort_by: 'input' }],
      ['GET', `${A}/workers?offset=-5`],
      ['POST', `${A}/workers/search`, { sort_by: 'rollout_id' }],
      ['GET', `${A}/resources?sort_order=up`],
      ['GET', `${A}/spans?rollout_id=${id}&sort_by=nope`],
      ['POST', `${A}/spans/search`, { rollout_id: id, limit: -3 }],
      ['POST', `${A}/rollouts/search`, { filter_logic: 'nand' }],
    ];
    for (const [method, url, body] of requests) {
      const res = await call(method as 'GET' | 'POST', url, body);
      expect(res.status, `${method} ${url}`).toBe(400);
      expect(typeof res.json.detail).toBe('string');
    }
  });

  it('sort_by accepts any field of the model, as upstream', async () => {
    const { call } = await seeded();
    const res = await call(
      'GET',
      `${A}/rollouts?sort_by=start_time&sort_order=desc&limit=2&offset=1`,
    );
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ limit: 2, offset: 1, total: 4 });
  });

  it('a non-integer limit is a schema error → 422', async () => {
    const { call } = await harness();
    const res = await call('GET', `${A}/rollouts?limit=ten`);
    expect(res.status).toBe(422);
    expect(res.json.detail).toContain('query.limit');
  });
});

describe('update semantics (only keys present; forbidden nulls → 400)', () => {
  it('rollout: absent keys are kept, null clears input/mode/resources_id/metadata', async () => {
    const { call } = await harness();
    const rollout = (
      await call('POST', `${A}/rollouts`, {
        input: { a: 1 },
        mode: 'train',
        resources_id: 'rs-x',
        metadata: { m: 1 },
      })
    ).json;
    const url = `${A}/rollouts/${rollout.rollout_id}`;

    const kept = await call('POST', url, {});
    expect(kept.status).toBe(200);
    expect(kept.json).toMatchObject({
      input: { a: 1 },
      mode: 'train',
      resources_id: 'rs-x',
      metadata: { m: 1 },
    });

    const onlyMeta = await call('POST', url, { metadata: { m: 2 } });
    expect(onlyMeta.json).toMatchObject({
      input: { a: 1 },
      mode: 'train',
      metadata: { m: 2 },
      status: 'preparing',
    });

    const cleared = await call('POST', url, {
      mode: null,
      resources_id: null,
      metadata: null,
      input: null,
    });
    expect(cleared.status).toBe(200);
    expect(cleared.json).toMatchObject({
      input: null,
      mode: null,
      resources_id: null,
      metadata: null,
    });

    const config = await call('POST', url, { config: { max_attempts: 3 } });
    expect(config.json.config).toEqual({
      timeout_seconds: null,
      unresponsive_seconds: null,
      max_attempts: 3,
      retry_condition: [],
    });
  });

  it.each(['status', 'config'])('rollout: %s null → 400', async (field) => {
    const { call } = await harness();
    const rollout = (await call('POST', `${A}/rollouts`, { input: 1 })).json;
    const res = await call('POST', `${A}/rollouts/${rollout.rollout_id}`, { [field]: null });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ detail: `${field} is invalid; it cannot be a null value.` });
    expect((await call('GET', `${A}/rollouts/${rollout.rollout_id}`)).json.status).toBe(
      'preparing',
    );
  });

  it.each(['status', 'worker_id', 'last_heartbeat_time', 'metadata'])(
    'attempt: %s null → 400',
    async (field) => {
      const { call } = await harness();
      const rollout = (await call('POST', `${A}/rollouts`, { input: 1, worker_id: 'w' })).json;
      const res = await call('POST', `${A}/rollouts/${rollout.rollout_id}/attempts/latest`, {
        [field]: null,
      });
      expect(res.status).toBe(400);
      expect(res.json.detail).toBe(`${field} is invalid; it cannot be a null value.`);
    },
  );

  it('attempt: absent keys are kept', async () => {
    const { call } = await harness();
    const rollout = (await call('POST', `${A}/rollouts`, { input: 1, worker_id: 'w' })).json;
    const res = await call('POST', `${A}/rollouts/${rollout.rollout_id}/attempts/latest`, {
      metadata: { x: 1 },
    });
    expect(res.json).toMatchObject({ worker_id: 'w', status: 'preparing', metadata: { x: 1 } });
  });

  it('worker: heartbeat_stats null → 400; absent keeps the stats', async () => {
    const { call } = await harness();
    await call('POST', `${A}/workers/w`, { heartbeat_stats: { cpu: 1 } });
    expect((await call('POST', `${A}/workers/w`, { heartbeat_stats: null })).status).toBe(400);
    const kept = await call('POST', `${A}/workers/w`, {});
    expect(kept.json.heartbeat_stats).toEqual({ cpu: 1 });
  });

  it('invalid enum values in update bodies → 422 naming the field', async () => {
    const { call } = await harness();
    const rollout = (await call('POST', `${A}/rollouts`, { input: 1 })).json;
    const res = await call('POST', `${A}/rollouts/${rollout.rollout_id}`, { status: 'exploded' });
    expect(res.status).toBe(422);
    expect(res.json.detail).toContain('body.status');
    const attempt = await call('POST', `${A}/rollouts/${rollout.rollout_id}/attempts/latest`, {
      status: 'done',
    });
    expect(attempt.status).toBe(422);
    const config = await call('POST', `${A}/rollouts/${rollout.rollout_id}`, {
      config: { max_attempts: 'x' },
    });
    expect(config.status).toBe(422);
    expect(config.json.detail).toContain('body.config.max_attempts');
  });
});

describe('error bodies', () => {
  it('unknown ids on writes → 404 naming the id', async () => {
    const { call } = await harness();
    const requests: Array<[string, unknown?]> = [
      [`${A}/rollouts/ro-missing`, { status: 'failed' }],
      [`${A}/rollouts/ro-missing/attempts/latest`, { status: 'failed' }],
      [`${A}/rollouts/ro-missing/attempts`, {}],
    ];
    for (const [url, body] of requests) {
      const res = await call('POST', url, body);
      expect(res.status, url).toBe(404);
      expect(res.json.detail).toContain('ro-missing');
    }
    const rollout = (await call('POST', `${A}/rollouts`, { input: 1 })).json;
    const attempt = await call('POST', `${A}/rollouts/${rollout.rollout_id}/attempts/at-missing`, {
      status: 'failed',
    });
    expect(attempt.status).toBe(404);
    expect(attempt.json.detail).toContain('at-missing');
  });

  it('a span for an unknown rollout → 404', async () => {
    const { call } = await harness();
    const { span } = await import('./helpers.js');
    const res = await call('POST', `${A}/spans`, span('ro-missing', 'at-missing'));
    expect(res.status).toBe(404);
    expect(res.json.detail).toContain('ro-missing');
  });

  it('schema errors → 422 naming the field', async () => {
    const { call } = await harness();
    const cases: Array<[string, unknown, string]> = [
      [`${A}/rollouts`, { mode: 'train' }, 'body.input'],
      [`${A}/rollouts`, { input: 1, mode: 'play' }, 'body.mode'],
      [`${A}/queues/rollouts/enqueue`, {}, 'body.rollouts'],
      [
        `${A}/queues/rollouts/enqueue`,
        { rollouts: [{ input: 1 }, { mode: 'x' }] },
        'body.rollouts.1',
      ],
      [`${A}/queues/rollouts/dequeue`, { limit: 'many' }, 'body.limit'],
      [`${A}/spans`, { name: 'x' }, 'body.rollout_id'],
      [`${A}/spans/next`, { rollout_id: 'r' }, 'body.attempt_id'],
      [`${A}/waits/rollouts`, { timeout: 1 }, 'body.rollout_ids'],
      [`${A}/resources`, { llm: { resource_type: 'gpu' } }, 'body.llm.resource_type'],
      [`${A}/workers/w`, { heartbeat_stats: [1] }, 'body.heartbeat_stats'],
      [`${A}/rollouts/search`, [1, 2], 'body'],
    ];
    for (const [url, body, field] of cases) {
      const res = await call('POST', url, body);
      expect(res.status, url).toBe(422);
      expect(res.json.detail, url).toContain(field);
    }
  });

  it('unexpected store failures → 500 with error_type and no internals', async () => {
    const { InMemoryLightningStore } = await import('@arclight/store');
    const store = new InMemoryLightningStore();
    store.statistics = async () => {
      throw new TypeError('boom: secret internals');
    };
    const { call } = await harness({}, store);
    const res = await call('GET', `${A}/statistics`);
    expect(res.status).toBe(500);
    const id = res.headers['x-request-id'];
    expect(res.json).toEqual({
      detail: `Internal server error (request id ${id})`,
      error_type: 'TypeError',
      request_id: id,
    });
  });

  it('a closed store → 503', async () => {
    const { call, store } = await harness();
    await store.close();
    const res = await call('POST', `${A}/rollouts`, { input: 1 });
    expect(res.status).toBe(503);
    expect(typeof res.json.detail).toBe('string');
  });
});

describe('request bodies', () => {
  it('malformed JSON → 400', async () => {
    const { server } = await harness();
    const res = await server.app.inject({
      method: 'POST',
      url: `${A}/rollouts`,
      payload: '{"input": 1,',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toMatch(/Malformed JSON/);
  });

  it('wrong content type → 415', async () => {
    const { server } = await harness();
    const res = await server.app.inject({
      method: 'POST',
      url: `${A}/rollouts`,
      payload: 'input=1',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().detail).toBe(
      "Unsupported Content-Type 'application/x-www-form-urlencoded', expected 'application/json'",
    );
  });

  it('oversized body → 413, and the server keeps serving', async () => {
    const { call, server } = await harness({ bodyLimit: 1024 });
    const res = await server.app.inject({
      method: 'POST',
      url: `${A}/rollouts`,
      payload: JSON.stringify({ input: 'x'.repeat(4096) }),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ detail: 'Request body is too large' });
    expect((await call('POST', `${A}/rollouts`, { input: 'small' })).status).toBe(201);
  });

  it('empty JSON body on a route whose body is required → 422; optional → defaults', async () => {
    const { server } = await harness();
    const required = await server.app.inject({
      method: 'POST',
      url: `${A}/rollouts/search`,
      payload: '',
      headers: { 'content-type': 'application/json' },
    });
    expect(required.statusCode).toBe(422);
    const optional = await server.app.inject({
      method: 'POST',
      url: `${A}/queues/rollouts/dequeue`,
      payload: '',
      headers: { 'content-type': 'application/json' },
    });
    expect(optional.statusCode).toBe(200);
    expect(optional.json()).toEqual([]);
  });

  it('__proto__ keys do not poison objects', async () => {
    const { server } = await harness();
    const res = await server.app.inject({
      method: 'POST',
      url: `${A}/rollouts`,
      payload: '{"input": {"__proto__": {"polluted": true}, "a": 1}}',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().input).toEqual({ a: 1 });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('bodies as aiohttp and other clients send them', () => {
  it('an empty body with a non-JSON content type is "no body" (aiohttp json=None)', async () => {
    const { server } = await harness();
    const res = await server.app.inject({
      method: 'POST',
      url: `${A}/workers/py-hb`,
      payload: '',
      headers: { 'content-type': 'application/octet-stream', 'content-length': '0' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ worker_id: 'py-hb', heartbeat_stats: null });
  });

  it('a body without Content-Type is parsed as JSON, like FastAPI', async () => {
    const { server } = await harness();
    const res = await server.app.inject({
      method: 'POST',
      url: `${A}/rollouts`,
      payload: Buffer.from('{"input": "no content type"}'),
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().input).toBe('no content type');
  });
});
