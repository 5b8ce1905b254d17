import { LLM, type Span } from '@arclight/core';
import { afterEach, describe, expect, it } from 'vitest';
import { LightningStoreClient } from '../src/index.js';
import { FakeServer, type SeenRequest } from './support/fake-server.js';
import { attemptJson, page, rolloutJson } from './support/wire-fixtures.js';

let server: FakeServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

const fast = { retryDelays: [0.01], healthRetryDelays: [0.01] };

async function clientAnswering(
  answer: (request: SeenRequest) => { status: number; json?: unknown } | undefined,
): Promise<LightningStoreClient> {
  server = await FakeServer.start((request) => answer(request));
  return new LightningStoreClient(server.url, fast);
}

const bodyOf = (request: SeenRequest | undefined): unknown => JSON.parse(request!.body);

function span(overrides: Partial<Span> = {}): Span {
  return {
    rollout_id: 'ro-1',
    attempt_id: 'at-1',
    sequence_id: 3,
    trace_id: '0af7651916cd43dd8448eb211c80319c',
    span_id: 'b7ad6b7169203331',
    parent_id: null,
    name: 'llm-call',
    status: { status_code: 'OK', description: null },
    attributes: { 'gen_ai.system': 'openai' },
    events: [],
    links: [],
    start_time: 1_700_000_000.25,
    end_time: 1_700_000_001.5,
    context: null,
    parent: null,
    resource: { attributes: { 'service.name': 'agent' }, schema_url: '' },
    ...overrides,
  };
}

describe('routes and bodies (as upstream’s Python client)', () => {
  it('update bodies carry only the keys that were set, null included', async () => {
    const client = await clientAnswering((request) =>
      request.path.startsWith('/v1/agl/rollouts/ro-1/attempts/')
        ? { status: 200, json: attemptJson('ro-1', 'at-1') }
        : request.path === '/v1/agl/rollouts/ro-1'
          ? { status: 200, json: rolloutJson('ro-1', 'failed') }
          : undefined,
    );
    await client.updateRollout('ro-1', { status: 'failed', metadata: null, mode: undefined });
    await client.updateAttempt('ro-1', 'latest', { status: 'succeeded' });
    expect(bodyOf(server!.to('/v1/agl/rollouts/ro-1')[0])).toEqual({
      status: 'failed',
      metadata: null,
    });
    expect(bodyOf(server!.to('/v1/agl/rollouts/ro-1/attempts/latest')[0])).toEqual({
      status: 'succeeded',
    });
  });

  it('queryResources uses GET with query parameters; other queries POST /search', async () => {
    const client = await clientAnswering((request) =>
      request.path.endsWith('/search') || request.path === '/v1/agl/resources'
        ? { status: 200, json: page([]) }
        : undefined,
    );
    await client.queryResources({
      resources_id_contains: 'rs-',
      sort_by: 'version',
      sort_order: 'desc',
      limit: 5,
    });
    const resources = server!.to('/v1/agl/resources')[0]!;
    expect(resources.method).toBe('GET');
    expect(Object.fromEntries(resources.query)).toEqual({
      limit: '5',
      offset: '0',
      sort_by: 'version',
      sort_order: 'desc',
      resources_id_contains: 'rs-',
    });
    await client.querySpans('ro-1', { attempt_id: 'latest', name_contains: 'llm' });
    expect(bodyOf(server!.to('/v1/agl/spans/search')[0])).toEqual({
      rollout_id: 'ro-1',
      attempt_id: 'latest',
      name_contains: 'llm',
      limit: -1,
      offset: 0,
      sort_by: 'sequence_id',
      sort_order: 'asc',
      filter_logic: 'and',
    });
    await client.queryRollouts({ status_in: ['running'] });
    expect(bodyOf(server!.to('/v1/agl/rollouts/search')[0])).toEqual({
      status_in: ['running'],
      limit: -1,
      offset: 0,
      filter_logic: 'and',
    });
    await client.queryWorkers({ limit: 2, offset: 1 });
    expect(bodyOf(server!.to('/v1/agl/workers/search')[0])).toMatchObject({ limit: 2, offset: 1 });
  });

  it('get-by-id answers null for 200 null, 404, and upstream’s response-validation 500', async () => {
    const client = await clientAnswering((request) => {
      if (request.path === '/v1/agl/rollouts/ro-gone') {
        return {
          status: 500,
          json: { detail: 'Internal server error', error_type: 'ResponseValidationError' },
        };
      }
      if (request.path === '/v1/agl/resources/rs-gone')
        return { status: 404, json: { detail: 'no rs-gone' } };
      if (request.path === '/v1/agl/workers/w-gone') return { status: 200, json: null };
      return undefined;
    });
    await expect(client.getRolloutById('ro-gone')).resolves.toBeNull();
    await expect(client.getResourcesById('rs-gone')).resolves.toBeNull();
    await expect(client.getWorkerById('w-gone')).resolves.toBeNull();
    // The response-validation 500 is not retried: it is deterministic.
    expect(server!.to('/v1/agl/rollouts/ro-gone')).toHaveLength(1);
  });

  it('resources are sent as wire JSON and come back as class instances', async () => {
    const update = {
      resources_id: 'rs-1',
      create_time: 1,
      update_time: 1,
      version: 1,
      resources: {
        main_llm: {
          resource_type: 'llm',
          endpoint: 'http://llm',
          model: 'm',
          api_key: null,
          sampling_parameters: {},
        },
      },
    };
    const client = await clientAnswering((request) =>
      request.path === '/v1/agl/resources' ? { status: 201, json: update } : undefined,
    );
    const got = await client.addResources({
      main_llm: new LLM({ endpoint: 'http://llm', model: 'm' }),
    });
    expect(bodyOf(server!.to('/v1/agl/resources')[0])).toEqual(update.resources);
    expect(got.resources.main_llm).toBeInstanceOf(LLM);
  });

  it('waitForRollouts polls with server-side waits of at most 0.1 s until the rollout finishes', async () => {
    let polls = 0;
    const client = await clientAnswering((request) => {
      if (request.path === '/v1/agl/waits/rollouts') {
        polls += 1;
        return { status: 200, json: polls < 4 ? [] : [rolloutJson('ro-1', 'succeeded')] };
      }
      if (request.path === '/v1/agl/rollouts/search')
        return { status: 200, json: page([rolloutJson('ro-1')]) };
      return undefined;
    });
    const done = await client.waitForRollouts({ rollout_ids: ['ro-1'] });
    expect(done.map((r) => r.status)).toEqual(['succeeded']);
    const waits = server!.to('/v1/agl/waits/rollouts').map((r) => bodyOf(r) as { timeout: number });
    expect(waits).toHaveLength(4);
    for (const wait of waits) expect(wait.timeout).toBeLessThanOrEqual(0.1);
  });

  it('waitForRollouts stops waiting for ids the server does not know', async () => {
    const client = await clientAnswering((request) => {
      if (request.path === '/v1/agl/waits/rollouts') return { status: 200, json: [] };
      if (request.path === '/v1/agl/rollouts/search') return { status: 200, json: page([]) };
      return undefined;
    });
    await expect(client.waitForRollouts({ rollout_ids: ['ro-unknown'] })).resolves.toEqual([]);
  });

  it('addManySpans posts one OTLP protobuf request with per-span attribution', async () => {
    const client = await clientAnswering((request) =>
      request.path === '/v1/traces' ? { status: 200 } : undefined,
    );
    const spans = [span(), span({ span_id: 'b7ad6b7169203332', sequence_id: 4 })];
    const stored = await client.addManySpans(spans);
    expect(stored).toEqual(spans);
    const [request] = server!.to('/v1/traces');
    expect(request!.headers['content-type']).toBe('application/x-protobuf');
    expect(request!.body).toContain('agentlightning.rollout_id');
    expect(request!.body).toContain('agentlightning.span_sequence_id');
    expect(server!.requests).toHaveLength(1);
  });

  it('addManySpans sends spans with non-OTLP ids one by one through /v1/agl/spans', async () => {
    const client = await clientAnswering((request) =>
      request.path === '/v1/agl/spans'
        ? { status: 201, json: JSON.parse(request.body) }
        : undefined,
    );
    const spans = [span({ span_id: 'not-hex' }), span({ span_id: 'b7ad6b7169203339' })];
    const stored = await client.addManySpans(spans);
    expect(stored.map((s) => s.span_id)).toEqual(['not-hex', 'b7ad6b7169203339']);
    expect(server!.to('/v1/agl/spans')).toHaveLength(2);
    expect(server!.to('/v1/traces')).toHaveLength(0);
  });

  it('reports its OTLP endpoint and all capabilities', () => {
    const client = new LightningStoreClient('http://host:4747/');
    expect(client.otlpTracesEndpoint()).toBe('http://host:4747/v1/traces');
    expect(client.otlpTracesHeaders()).toEqual({});
    expect(
      new LightningStoreClient('http://host:4747', { token: 's3cret' }).otlpTracesHeaders(),
    ).toEqual({
      authorization: 'Bearer s3cret',
    });
    expect(client.capabilities).toEqual({
      thread_safe: true,
      async_safe: true,
      zero_copy: true,
      otlp_traces: true,
    });
  });
});
