import { describe, expect, it } from 'vitest';
import { harness, span } from './helpers.js';

const A = '/v1/agl';

describe('rollout and queue routes', () => {
  it('health answers {"status":"ok"}', async () => {
    const { call } = await harness();
    const res = await call('GET', `${A}/health`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ status: 'ok' });
  });

  it('enqueue answers 201 with Rollout[] (empty list, one, many)', async () => {
    const { call } = await harness();
    const none = await call('POST', `${A}/queues/rollouts/enqueue`, { rollouts: [] });
    expect(none.status).toBe(201);
    expect(none.json).toEqual([]);

    const one = await call('POST', `${A}/queues/rollouts/enqueue`, {
      rollouts: [{ input: { q: 1 }, mode: 'train', config: { max_attempts: 2 } }],
    });
    expect(one.status).toBe(201);
    expect(one.json).toHaveLength(1);
    expect(one.json[0]).toMatchObject({
      input: { q: 1 },
      mode: 'train',
      status: 'queuing',
      end_time: null,
      resources_id: null,
      config: {
        timeout_seconds: null,
        unresponsive_seconds: null,
        max_attempts: 2,
        retry_condition: [],
      },
    });
    expect(one.json[0].rollout_id).toMatch(/^ro-[0-9a-f]{12}$/);
    expect(one.json[0]).not.toHaveProperty('attempt');

    const many = await call('POST', `${A}/queues/rollouts/enqueue`, {
      rollouts: [{ input: 'a' }, { input: 'b' }, { input: null }],
    });
    expect(many.status).toBe(201);
    expect(many.json.map((r: { input: unknown }) => r.input)).toEqual(['a', 'b', null]);
  });

  it('dequeue answers 200 with AttemptedRollout[]; no body means limit 1; limit <= 0 → []', async () => {
    const { call } = await harness();
    await call('POST', `${A}/queues/rollouts/enqueue`, {
      rollouts: [{ input: 1 }, { input: 2 }, { input: 3 }],
    });
    const first = await call('POST', `${A}/queues/rollouts/dequeue`);
    expect(first.status).toBe(200);
    expect(first.json).toHaveLength(1);
    expect(first.json[0]).toMatchObject({ input: 1, status: 'preparing' });
    expect(first.json[0].attempt).toMatchObject({
      sequence_id: 1,
      status: 'preparing',
      worker_id: null,
    });

    const zero = await call('POST', `${A}/queues/rollouts/dequeue`, { limit: 0 });
    expect(zero.json).toEqual([]);

    const two = await call('POST', `${A}/queues/rollouts/dequeue`, {
      limit: 5,
      worker_id: 'Worker-0',
    });
    expect(two.status).toBe(200);
    expect(two.json.map((r: { input: number }) => r.input)).toEqual([2, 3]);
    expect(two.json[1].attempt.worker_id).toBe('Worker-0');

    const empty = await call('POST', `${A}/queues/rollouts/dequeue`, { worker_id: 'Worker-0' });
    expect(empty.json).toEqual([]);
  });

  it('start rollout answers 201 with an AttemptedRollout; get by id returns it; unknown id → 200 null', async () => {
    const { call } = await harness();
    const res = await call('POST', `${A}/rollouts`, {
      input: { task: 'x' },
      mode: 'val',
      metadata: { k: 'v' },
      worker_id: 'w1',
    });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({
      input: { task: 'x' },
      mode: 'val',
      status: 'preparing',
      metadata: { k: 'v' },
    });
    expect(res.json.attempt).toMatchObject({
      sequence_id: 1,
      worker_id: 'w1',
      status: 'preparing',
    });

    const got = await call('GET', `${A}/rollouts/${res.json.rollout_id}`);
    expect(got.status).toBe(200);
    expect(got.json.rollout_id).toBe(res.json.rollout_id);
    expect(got.json.attempt.attempt_id).toBe(res.json.attempt.attempt_id);

    const unknown = await call('GET', `${A}/rollouts/ro-unknown`);
    expect(unknown.status).toBe(200);
    expect(unknown.raw.body).toBe('null');
  });

  it('query rollouts (GET and search) answers a PaginatedResult', async () => {
    const { call } = await harness();
    await call('POST', `${A}/queues/rollouts/enqueue`, { rollouts: [{ input: 1 }, { input: 2 }] });
    await call('POST', `${A}/rollouts`, { input: 3 });
    const all = await call('GET', `${A}/rollouts`);
    expect(all.status).toBe(200);
    expect(all.json).toMatchObject({ limit: -1, offset: 0, total: 3 });
    expect(all.json.items).toHaveLength(3);

    const page = await call('POST', `${A}/rollouts/search`, {
      limit: 1,
      offset: 1,
      sort_by: 'start_time',
      sort_order: 'desc',
    });
    expect(page.status).toBe(200);
    expect(page.json).toMatchObject({ limit: 1, offset: 1, total: 3 });
    expect(page.json.items).toHaveLength(1);

    const running = await call('POST', `${A}/rollouts/search`, { status_in: ['preparing'] });
    expect(running.json.items.map((r: { input: number }) => r.input)).toEqual([3]);
    expect(running.json.items[0].attempt).toBeDefined();
  });

  it('update rollout answers the Rollout', async () => {
    const { call } = await harness();
    const [rollout] = (
      await call('POST', `${A}/queues/rollouts/enqueue`, { rollouts: [{ input: 1 }] })
    ).json;
    const res = await call('POST', `${A}/rollouts/${rollout.rollout_id}`, { status: 'cancelled' });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      rollout_id: rollout.rollout_id,
      status: 'cancelled',
      input: 1,
    });
    expect(typeof res.json.end_time).toBe('number');
  });
});

describe('attempt routes', () => {
  it('start (201), query, search, latest, update', async () => {
    const { call } = await harness();
    const rollout = (await call('POST', `${A}/rollouts`, { input: 1 })).json;
    const id = rollout.rollout_id;

    const started = await call('POST', `${A}/rollouts/${id}/attempts`, { worker_id: 'w2' });
    expect(started.status).toBe(201);
    expect(started.json.attempt).toMatchObject({ sequence_id: 2, worker_id: 'w2' });

    const noBody = await call('POST', `${A}/rollouts/${id}/attempts`);
    expect(noBody.status).toBe(201);
    expect(noBody.json.attempt.sequence_id).toBe(3);

    const listed = await call('GET', `${A}/rollouts/${id}/attempts?sort_order=desc&limit=2`);
    expect(listed.status).toBe(200);
    expect(listed.json).toMatchObject({ limit: 2, offset: 0, total: 3 });
    expect(listed.json.items.map((a: { sequence_id: number }) => a.sequence_id)).toEqual([3, 2]);

    const searched = await call('POST', `${A}/rollouts/${id}/attempts/search`, { offset: 1 });
    expect(searched.json.items.map((a: { sequence_id: number }) => a.sequence_id)).toEqual([2, 3]);

    const latest = await call('GET', `${A}/rollouts/${id}/attempts/latest`);
    expect(latest.status).toBe(200);
    expect(latest.json.sequence_id).toBe(3);

    const updated = await call('POST', `${A}/rollouts/${id}/attempts/latest`, {
      status: 'succeeded',
      metadata: { reward: 1 },
    });
    expect(updated.status).toBe(200);
    expect(updated.json).toMatchObject({
      sequence_id: 3,
      status: 'succeeded',
      metadata: { reward: 1 },
    });
    const byId = await call('POST', `${A}/rollouts/${id}/attempts/${updated.json.attempt_id}`, {
      last_heartbeat_time: 1234.5,
    });
    expect(byId.json.last_heartbeat_time).toBe(1234.5);
    expect((await call('GET', `${A}/rollouts/${id}`)).json.status).toBe('succeeded');
  });

  it('latest attempt of a rollout without attempts is 200 null', async () => {
    const { call } = await harness();
    const [rollout] = (
      await call('POST', `${A}/queues/rollouts/enqueue`, { rollouts: [{ input: 1 }] })
    ).json;
    const res = await call('GET', `${A}/rollouts/${rollout.rollout_id}/attempts/latest`);
    expect(res.status).toBe(200);
    expect(res.raw.body).toBe('null');
  });
});

describe('worker routes', () => {
  it('update (upsert), get, query, search; unknown id → 200 null', async () => {
    const { call } = await harness();
    const created = await call('POST', `${A}/workers/Worker-0`, {
      heartbeat_stats: { cpu_usage_pct: 5 },
    });
    expect(created.status).toBe(200);
    expect(created.json).toMatchObject({
      worker_id: 'Worker-0',
      status: 'unknown',
      heartbeat_stats: { cpu_usage_pct: 5 },
      current_rollout_id: null,
    });
    expect(typeof created.json.last_heartbeat_time).toBe('number');

    const noBody = await call('POST', `${A}/workers/Worker-1`);
    expect(noBody.status).toBe(200);
    expect(noBody.json.heartbeat_stats).toBeNull();

    expect((await call('GET', `${A}/workers/Worker-0`)).json.worker_id).toBe('Worker-0');
    const unknown = await call('GET', `${A}/workers/nobody`);
    expect(unknown.status).toBe(200);
    expect(unknown.raw.body).toBe('null');

    const listed = await call('GET', `${A}/workers?worker_id_contains=-1`);
    expect(listed.json).toMatchObject({ total: 1, limit: -1, offset: 0 });
    const searched = await call('POST', `${A}/workers/search`, {
      status_in: ['unknown'],
      sort_by: 'worker_id',
    });
    expect(searched.json.items.map((w: { worker_id: string }) => w.worker_id)).toEqual([
      'Worker-0',
      'Worker-1',
    ]);
  });
});

describe('resource routes', () => {
  const resources = {
    main_llm: {
      resource_type: 'llm',
      endpoint: 'http://llm/v1',
      model: 'm',
      sampling_parameters: { temperature: 0.5 },
    },
    prompt: { resource_type: 'prompt_template', template: 'Hi {name}', engine: 'f-string' },
  };

  it('add (201), latest, get by id, update, query; unknown id → 200 null', async () => {
    const { call } = await harness();
    expect((await call('GET', `${A}/resources/latest`)).raw.body).toBe('null');

    const added = await call('POST', `${A}/resources`, resources);
    expect(added.status).toBe(201);
    expect(added.json).toMatchObject({
      version: 1,
      resources: { main_llm: { model: 'm', api_key: null } },
    });
    expect(added.json.resources.main_llm.resource_type).toBe('llm');
    expect(added.json.resources_id).toMatch(/^rs-/);

    const latest = await call('GET', `${A}/resources/latest`);
    expect(latest.json.resources_id).toBe(added.json.resources_id);

    const updated = await call('POST', `${A}/resources/${added.json.resources_id}`, {
      prompt: resources.prompt,
    });
    expect(updated.status).toBe(200);
    expect(updated.json.version).toBe(2);
    expect(Object.keys(updated.json.resources)).toEqual(['prompt']);

    const upserted = await call('POST', `${A}/resources/default`, resources);
    expect(upserted.json).toMatchObject({ resources_id: 'default', version: 1 });

    expect((await call('GET', `${A}/resources/default`)).json.version).toBe(1);
    const unknown = await call('GET', `${A}/resources/rs-none`);
    expect(unknown.status).toBe(200);
    expect(unknown.raw.body).toBe('null');

    const listed = await call('GET', `${A}/resources?resources_id_contains=def`);
    expect(listed.json).toMatchObject({ total: 1, items: [{ resources_id: 'default' }] });
  });
});

describe('span routes', () => {
  it('add (201), duplicate (201 null), query, search, next sequence id', async () => {
    const { call } = await harness();
    const rollout = (await call('POST', `${A}/rollouts`, { input: 1 })).json;
    const s = span(rollout.rollout_id, rollout.attempt.attempt_id, { extra_field: { kept: true } });

    const added = await call('POST', `${A}/spans`, s);
    expect(added.status).toBe(201);
    expect(added.json).toMatchObject({
      span_id: s.span_id,
      name: s.name,
      extra_field: { kept: true },
    });

    const duplicate = await call('POST', `${A}/spans`, s);
    expect(duplicate.status).toBe(201);
    expect(duplicate.raw.body).toBe('null');

    await call('POST', `${A}/spans`, {
      ...s,
      span_id: '00000000000000b2',
      sequence_id: 2,
      name: 'llm',
    });

    const all = await call('GET', `${A}/spans?rollout_id=${rollout.rollout_id}`);
    expect(all.status).toBe(200);
    expect(all.json).toMatchObject({ total: 2, limit: -1, offset: 0 });
    expect(all.json.items[0]).toEqual({ ...s, extra_field: { kept: true } });

    const latest = await call(
      'GET',
      `${A}/spans?rollout_id=${rollout.rollout_id}&attempt_id=latest&name_contains=ll&sort_order=desc`,
    );
    expect(latest.json.items.map((x: { name: string }) => x.name)).toEqual(['llm']);

    const searched = await call('POST', `${A}/spans/search`, {
      rollout_id: rollout.rollout_id,
      attempt_id: rollout.attempt.attempt_id,
      name: 'llm',
      span_id_contains: 'a1',
      filter_logic: 'or',
    });
    expect(searched.json.total).toBe(2);

    const next = await call('POST', `${A}/spans/next`, {
      rollout_id: rollout.rollout_id,
      attempt_id: rollout.attempt.attempt_id,
    });
    expect(next.status).toBe(200);
    expect(next.json).toEqual({ sequence_id: 3 });
  });
});

describe('waits, statistics and OTLP signals', () => {
  it('waits/rollouts returns the finished subset and drops unknown ids', async () => {
    const { call } = await harness();
    const [a, b] = (
      await call('POST', `${A}/queues/rollouts/enqueue`, { rollouts: [{ input: 1 }, { input: 2 }] })
    ).json;
    await call('POST', `${A}/rollouts/${a.rollout_id}`, { status: 'succeeded' });
    const res = await call('POST', `${A}/waits/rollouts`, {
      rollout_ids: [a.rollout_id, b.rollout_id, 'ro-unknown'],
      timeout: 0,
    });
    expect(res.status).toBe(200);
    expect(res.json.map((r: { rollout_id: string }) => r.rollout_id)).toEqual([a.rollout_id]);
    expect(res.json[0].status).toBe('succeeded');
  });

  it('statistics reports store totals', async () => {
    const { call } = await harness();
    await call('POST', `${A}/rollouts`, { input: 1 });
    const res = await call('GET', `${A}/statistics`);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ total_rollouts: 1, total_attempts: 1, total_spans: 0 });
    expect(typeof res.json.name).toBe('string');
  });

  it.each(['/v1/metrics', '/v1/logs', '/v1/development/profiles'])(
    'POST %s → 501',
    async (path) => {
      const { server } = await harness();
      const res = await server.app.inject({
        method: 'POST',
        url: path,
        payload: Buffer.from([1, 2]),
        headers: { 'content-type': 'application/x-protobuf' },
      });
      expect(res.statusCode).toBe(501);
    },
  );

  it('unknown routes → 404 {"detail":"Not Found"}', async () => {
    const { call } = await harness();
    const res = await call('GET', `${A}/nothing-here`);
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ detail: 'Not Found' });
  });
});
