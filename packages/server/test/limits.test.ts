import { gzipSync } from 'node:zlib';
import { InMemoryLightningStore, SqliteLightningStore } from '@arclight/store';
import { describe, expect, it } from 'vitest';
import { harness, span as restSpan } from './helpers.js';
import {
  attribution,
  emptySpansRequest,
  keyValue,
  nestedJsonValue,
  nestedValue,
  repeatedSpansRequest,
  request,
  resourceSpans,
  SPAN_ID,
  span,
  stringValue,
} from './wire.js';

type Harness = Awaited<ReturnType<typeof harness>>;
const PROTO = { 'content-type': 'application/x-protobuf' };
const JSON_TYPE = { 'content-type': 'application/json' };

const postTraces = (h: Harness, payload: Buffer | string, headers: Record<string, string>) =>
  h.server.app.inject({ method: 'POST', url: '/v1/traces', payload, headers });

/** The `message` of an OTLP error body in either encoding (google.rpc.Status field 2 is a string). */
function otlpMessage(res: { headers: Record<string, unknown>; body: string; rawPayload: Buffer }) {
  if (String(res.headers['content-type']).includes('json')) return JSON.parse(res.body).message;
  return res.rawPayload.toString('latin1');
}

async function attributedHarness(options: Parameters<typeof harness>[0] = {}) {
  const h = await harness(options);
  const rollout = await h.store.startRollout({ input: 1 });
  const attrs = attribution(rollout.rollout_id, rollout.attempt.attempt_id);
  const jsonAttrs = [
    { key: 'agentlightning.rollout_id', value: { stringValue: rollout.rollout_id } },
    { key: 'agentlightning.attempt_id', value: { stringValue: rollout.attempt.attempt_id } },
  ];
  return { h, rollout, attrs, jsonAttrs };
}

const jsonRequest = (resourceAttributes: unknown[], spans: unknown[]) =>
  JSON.stringify({
    resourceSpans: [{ resource: { attributes: resourceAttributes }, scopeSpans: [{ spans }] }],
  });

/** An OTLP/JSON request with one span whose attribute `deep` nests `depth` levels, built as text. */
function deepJsonRequest(
  resourceAttributes: unknown[],
  depth: number,
  kind: 'array' | 'kvlist',
): string {
  const open =
    kind === 'array'
      ? '{"arrayValue":{"values":['
      : '{"kvlistValue":{"values":[{"key":"k","value":';
  const close = kind === 'array' ? ']}}' : '}]}}';
  const value = `${open.repeat(depth)}{"stringValue":"leaf"}${close.repeat(depth)}`;
  const spanText = JSON.stringify(jsonSpan(0)).replace(
    /}$/,
    `,"attributes":[{"key":"deep","value":${value}}]}`,
  );
  return `{"resourceSpans":[{"resource":{"attributes":${JSON.stringify(resourceAttributes)}},"scopeSpans":[{"spans":[${spanText}]}]}]}`;
}

const jsonSpan = (i: number, extra: Record<string, unknown> = {}) => ({
  traceId: 'ab'.repeat(16),
  spanId: SPAN_ID(i).toString('hex'),
  name: `s${i}`,
  ...extra,
});

describe('OTLP: bounded work per request', () => {
  it('gzip bombs of millions of spans are refused before decoding', {
    timeout: 60_000,
  }, async () => {
    const h = await harness();
    // The probe's payload: 61 KB of gzip, 62 MB of protobuf, 31M empty spans (no ids: refused at the first).
    const empty = gzipSync(emptySpansRequest(31_000_000), { level: 9 });
    expect(empty.length).toBeLessThan(100_000);
    const res = await postTraces(h, empty, { ...PROTO, 'content-encoding': 'gzip' });
    expect(res.statusCode).toBe(400);
    expect(otlpMessage(res)).toContain('span #0: trace_id is missing or empty');
    // The same with valid ids: 2M identical spans, refused at span 20,001.
    const valid = gzipSync(repeatedSpansRequest(2_000_000, span({ name: '' })), { level: 9 });
    expect(valid.length).toBeLessThan(300_000);
    const res2 = await postTraces(h, valid, { ...PROTO, 'content-encoding': 'gzip' });
    expect(res2.statusCode).toBe(413);
    expect(otlpMessage(res2)).toContain('limits.maxSpansPerRequest (20000)');
    expect((await h.server.app.inject({ method: 'GET', url: '/v1/agl/health' })).statusCode).toBe(
      200,
    );
  });

  it('a bomb inflating past maxDecompressedBytes stops there with a 413', async () => {
    const h = await harness({ limits: { maxDecompressedBytes: 1024 * 1024 } });
    const bomb = gzipSync(Buffer.alloc(50 * 1024 * 1024), { level: 9 });
    const res = await postTraces(h, bomb, { ...PROTO, 'content-encoding': 'gzip' });
    expect(res.statusCode).toBe(413);
    expect(otlpMessage(res)).toContain('limits.maxDecompressedBytes (1048576)');
  });

  it.each(['protobuf', 'json'] as const)(
    '%s: spans over maxSpansPerRequest → 413; at the limit → stored',
    async (encoding) => {
      const { h, rollout, attrs, jsonAttrs } = await attributedHarness({
        limits: { maxSpansPerRequest: 5 },
      });
      const body = (n: number) =>
        encoding === 'protobuf'
          ? request(
              resourceSpans(
                attrs,
                Array.from({ length: n }, (_, i) => span({ spanId: SPAN_ID(i) })),
              ),
            )
          : jsonRequest(
              jsonAttrs,
              Array.from({ length: n }, (_, i) => jsonSpan(i)),
            );
      const headers = encoding === 'protobuf' ? PROTO : JSON_TYPE;
      const over = await postTraces(h, body(6), headers);
      expect(over.statusCode).toBe(413);
      expect(otlpMessage(over)).toContain('limits.maxSpansPerRequest (5)');
      const ok = await postTraces(h, body(5), headers);
      expect(ok.statusCode).toBe(200);
      expect((await h.store.querySpans(rollout.rollout_id)).total).toBe(5);
    },
  );

  it.each(['protobuf', 'json'] as const)(
    '%s: attributes over maxAttributesPerSpan → 413',
    async (encoding) => {
      const { h, attrs, jsonAttrs } = await attributedHarness({
        limits: { maxAttributesPerSpan: 3 },
      });
      const many = Array.from({ length: 4 }, (_, i) => i);
      const body =
        encoding === 'protobuf'
          ? request(
              resourceSpans(attrs, [
                span({ attributes: many.map((i) => keyValue(`k${i}`, stringValue('v'))) }),
              ]),
            )
          : jsonRequest(jsonAttrs, [
              jsonSpan(0, {
                attributes: many.map((i) => ({ key: `k${i}`, value: { stringValue: 'v' } })),
              }),
            ]);
      const res = await postTraces(h, body, encoding === 'protobuf' ? PROTO : JSON_TYPE);
      expect(res.statusCode).toBe(413);
      expect(otlpMessage(res)).toContain('limits.maxAttributesPerSpan (3)');
    },
  );

  it.each(['protobuf', 'json'] as const)(
    '%s: a value over maxAttributeValueBytes → 413',
    async (encoding) => {
      const { h, attrs, jsonAttrs } = await attributedHarness({
        limits: { maxAttributeValueBytes: 100 },
      });
      const big = 'x'.repeat(101);
      const body =
        encoding === 'protobuf'
          ? request(
              resourceSpans(attrs, [span({ attributes: [keyValue('big', stringValue(big))] })]),
            )
          : jsonRequest(jsonAttrs, [
              jsonSpan(0, { attributes: [{ key: 'big', value: { stringValue: big } }] }),
            ]);
      const res = await postTraces(h, body, encoding === 'protobuf' ? PROTO : JSON_TYPE);
      expect(res.statusCode).toBe(413);
      expect(otlpMessage(res)).toContain('limits.maxAttributeValueBytes (100)');
    },
  );

  describe.each(['array', 'kvlist'] as const)('%sValue nesting', { timeout: 30_000 }, (kind) => {
    it.each([
      ['protobuf', 5000],
      ['json', 5000],
      ['protobuf', 65],
      ['json', 65],
    ] as const)('%s nested %i deep → 400 naming maxDepth', async (encoding, depth) => {
      const { h, attrs, jsonAttrs } = await attributedHarness();
      const body =
        encoding === 'protobuf'
          ? request(
              resourceSpans(attrs, [
                span({ attributes: [keyValue('deep', nestedValue(depth, kind))] }),
              ]),
            )
          : deepJsonRequest(jsonAttrs, depth, kind);
      const res = await postTraces(h, body, encoding === 'protobuf' ? PROTO : JSON_TYPE);
      expect(res.statusCode).toBe(400);
      expect(otlpMessage(res)).toContain('limits.maxDepth (64)');
    });

    it.each(['protobuf', 'json'] as const)(
      '%s nested 63 deep is stored, same limit for both encodings',
      async (encoding) => {
        const { h, rollout, attrs, jsonAttrs } = await attributedHarness();
        const body =
          encoding === 'protobuf'
            ? request(
                resourceSpans(attrs, [
                  span({ attributes: [keyValue('deep', nestedValue(63, kind))] }),
                ]),
              )
            : jsonRequest(jsonAttrs, [
                jsonSpan(0, { attributes: [{ key: 'deep', value: nestedJsonValue(63, kind) }] }),
              ]);
        const res = await postTraces(h, body, encoding === 'protobuf' ? PROTO : JSON_TYPE);
        expect(res.statusCode).toBe(200);
        expect((await h.store.querySpans(rollout.rollout_id)).total).toBe(1);
      },
    );
  });

  it.each([
    ['trace_id', { traceId: null }],
    ['span_id', { spanId: null }],
    ['trace_id', { traceId: Buffer.alloc(0) }],
  ] as const)('protobuf: a span without %s → 400 naming it', async (field, parts) => {
    const { h, attrs } = await attributedHarness();
    const res = await postTraces(h, request(resourceSpans(attrs, [span(parts)])), PROTO);
    expect(res.statusCode).toBe(400);
    expect(otlpMessage(res)).toContain(`span #0: ${field} is missing or empty`);
  });

  it.each(['traceId', 'spanId'])('json: a span without %s → 400 naming it', async (field) => {
    const { h, jsonAttrs } = await attributedHarness();
    const s: Record<string, unknown> = jsonSpan(0);
    delete s[field];
    const res = await postTraces(h, jsonRequest(jsonAttrs, [s]), JSON_TYPE);
    expect(res.statusCode).toBe(400);
    expect(otlpMessage(res)).toContain(`${field}: is missing or empty`);
  });

  it('limits are validated when the server is created', async () => {
    await expect(harness({ limits: { maxDepth: 0 } })).rejects.toThrow(
      'limits.maxDepth: expected a positive integer',
    );
  });
});

/** JSON text nested `depth` arrays deep (built as text: JSON.stringify itself would overflow). */
const deepJson = (depth: number): string => `${'['.repeat(depth)}1${']'.repeat(depth)}`;

describe('REST: free-form JSON fields nested too deep are a 400, not a 500', () => {
  const routes: Array<[string, string, (deep: string, ids: { rolloutId: string }) => string]> = [
    ['POST', '/v1/agl/rollouts', (d) => `{"input": ${d}}`],
    [
      'POST',
      '/v1/agl/queues/rollouts/enqueue',
      (d) => `{"rollouts": [{"input": 1, "metadata": {"m": ${d}}}]}`,
    ],
    ['POST', '/v1/agl/rollouts/:id', (d) => `{"metadata": {"m": ${d}}}`],
    ['POST', '/v1/agl/workers/w1', (d) => `{"heartbeat_stats": {"s": ${d}}}`],
    [
      'POST',
      '/v1/agl/resources',
      (d) =>
        `{"llm": {"resource_type": "llm", "endpoint": "http://x", "model": "m", "sampling_parameters": {"p": ${d}}}}`,
    ],
    [
      'POST',
      '/v1/agl/spans',
      (d, { rolloutId }) => `{"rollout_id": "${rolloutId}", "attributes": {"a": ${d}}}`,
    ],
  ];
  it.each(routes.flatMap(([m, p, b]) => [5000, 70].map((depth) => [m, p, b, depth] as const)))(
    '%s %s nested %i deep',
    async (method, path, body, depth) => {
      const h = await harness();
      const rollout = await h.store.startRollout({ input: 1 });
      const url = path.replace(':id', rollout.rollout_id);
      const res = await h.server.app.inject({
        method: method as 'POST',
        url,
        payload: body(deepJson(depth), { rolloutId: rollout.rollout_id }),
        headers: JSON_TYPE,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().detail).toBe('JSON nesting depth exceeds limits.maxDepth (64)');
    },
  );

  it('a value nested 60 deep is accepted and stored (SQLite-safe depth)', async () => {
    const h = await harness();
    const res = await h.server.app.inject({
      method: 'POST',
      url: '/v1/agl/rollouts',
      payload: `{"input": ${deepJson(60)}}`,
      headers: JSON_TYPE,
    });
    expect(res.statusCode).toBe(201);
  });
});

describe('limits.maxItemsPerResponse', () => {
  for (const backend of ['memory', 'sqlite'] as const) {
    it(`caps every page answer, whatever limit asks for (${backend})`, async () => {
      const store =
        backend === 'memory'
          ? new InMemoryLightningStore()
          : new SqliteLightningStore({ path: ':memory:' });
      const h = await harness({ limits: { maxItemsPerResponse: 3 } }, store);
      await h.store.enqueueManyRollouts([1, 2, 3, 4, 5].map((input) => ({ input })));
      const rollout = await h.store.startRollout({ input: 6 });
      const { rollout_id, attempt } = rollout;
      const A = '/v1/agl';
      for (let i = 1; i <= 5; i++) {
        const body = restSpan(rollout_id, attempt.attempt_id, {
          span_id: `00000000000000b${i}`,
          sequence_id: i,
        });
        expect((await h.call('POST', `${A}/spans`, body)).status).toBe(201);
      }
      const refused = [
        ['GET', `${A}/rollouts`],
        ['GET', `${A}/rollouts?limit=4`],
        ['GET', `${A}/rollouts?limit=-1&offset=2`],
        ['GET', `${A}/spans?rollout_id=${rollout_id}`],
        ['GET', `${A}/spans?rollout_id=${rollout_id}&limit=100`],
      ] as const;
      for (const [method, url] of refused) {
        const res = await h.call(method, url);
        expect(res.status, url).toBe(413);
        expect((res.json as { detail: string }).detail, url).toMatch(
          /^A page of \d+ (rollouts|spans) exceeds limits\.maxItemsPerResponse \(3\): ask for them in pages/,
        );
      }
      const search = await h.call('POST', `${A}/rollouts/search`, { status_in: ['queuing'] });
      expect(search.status).toBe(413);
      expect((search.json as { detail: string }).detail).toContain('A page of 5 rollouts');

      // Pages within the cap, and unlimited answers that fit in it, are served as asked (limit echoed).
      const paged = await h.call('GET', `${A}/rollouts?limit=3&offset=3`);
      expect(paged.json).toMatchObject({ limit: 3, offset: 3, total: 6 });
      expect((paged.json as { items: unknown[] }).items).toHaveLength(3);
      const tail = await h.call('GET', `${A}/rollouts?offset=4`);
      expect(tail.status).toBe(200);
      expect(tail.json).toMatchObject({ limit: -1, offset: 4, total: 6 });
      expect((tail.json as { items: unknown[] }).items).toHaveLength(2);
      const spans = await h.call('GET', `${A}/spans?rollout_id=${rollout_id}&offset=2&limit=50`);
      expect(spans.json).toMatchObject({ limit: 50, offset: 2, total: 5 });
      expect(
        (spans.json as { items: { sequence_id: number }[] }).items.map((s) => s.sequence_id),
      ).toEqual([3, 4, 5]);
      const attempts = await h.call('GET', `${A}/rollouts/${rollout_id}/attempts`);
      expect(attempts.json).toMatchObject({ limit: -1, total: 1 });
      // A dequeue takes "up to limit": at most the cap, the rest stay queued.
      const dequeued = await h.call('POST', `${A}/queues/rollouts/dequeue`, { limit: 10 });
      expect((dequeued.json as unknown[]).length).toBe(3);
      const queued = await h.call('GET', `${A}/rollouts?status_in=queuing`);
      expect(queued.json).toMatchObject({ total: 2 });
    });
  }
});
