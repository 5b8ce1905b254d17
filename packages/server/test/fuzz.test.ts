import { InMemoryLightningStore, SqliteLightningStore } from '@arclight/store';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { harness } from './helpers.js';
import { attribution, request, resourceSpans, SPAN_ID, span } from './wire.js';

type Harness = Awaited<ReturnType<typeof harness>>;
type Method = 'GET' | 'HEAD' | 'POST';

/** Every route of the app, read from Fastify's own route tree (so a new route is fuzzed without editing this). */
function routesOf(h: Harness): Array<{ method: Method; path: string }> {
  const routes: Array<{ method: Method; path: string }> = [];
  const stack: string[] = [];
  for (const line of h.server.app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^([│ ]*)[├└]── (\S*) \(([A-Z, ]+)\)/u.exec(line);
    if (!match) continue;
    const depth = [...match[1]!].length / 4;
    stack.length = depth;
    stack.push(match[2]!);
    const path = stack.join('');
    for (const method of match[3]!.split(',').map((m) => m.trim())) {
      if (method === 'GET' || method === 'HEAD' || method === 'POST') routes.push({ method, path });
    }
  }
  return routes;
}

/** JSON-ish values, including the shapes the routes expect, wrong types and nulls. */
const jsonValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.double(),
    fc.string(),
    fc.constantFrom('queuing', 'succeeded', 'latest', 'asc', '-1', 'ro-x', '', '__proto__'),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(
      fc.oneof(
        fc.string({ maxLength: 8 }),
        fc.constantFrom(
          'input',
          'rollouts',
          'limit',
          'offset',
          'status',
          'status_in',
          'sort_by',
          'sort_order',
          'worker_id',
          'metadata',
          'config',
          'rollout_id',
          'attempt_id',
          'span_id',
          'trace_id',
          'timeout',
          'rollout_ids',
          'heartbeat_stats',
          'resource_type',
          'filter_logic',
          '__proto__',
          'constructor',
        ),
      ),
      tie('value'),
      { maxKeys: 5 },
    ),
  ),
})).value;

/** Nesting depths: shallow (fast-check's bias) and far past any stack (the probe's 5,000). */
const depth = fc.oneof(fc.integer({ min: 1, max: 100 }), fc.constantFrom(5_000, 20_000));

/** A request body: JSON text of a value, deeply nested text, broken text, or raw bytes. */
const body = fc.oneof(
  jsonValue.map((v) => JSON.stringify(v) ?? ''),
  depth.map((d) => `${'{"a":'.repeat(d)}1${'}'.repeat(d)}`),
  depth.map((d) => `{"input": ${'['.repeat(d)}${']'.repeat(d)}}`),
  fc.string(),
  fc.uint8Array({ maxLength: 64 }).map((b) => Buffer.from(b).toString('latin1')),
);

const contentType = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  'application/x-protobuf',
  undefined,
);

const query = fc
  .array(
    fc.tuple(
      fc.constantFrom(
        'limit',
        'offset',
        'status_in',
        'sort_by',
        'sort_order',
        'rollout_id',
        'attempt_id',
        'x',
      ),
      fc.oneof(fc.string({ maxLength: 6 }), fc.integer().map(String)),
    ),
    { maxLength: 3 },
  )
  .map((pairs) => (pairs.length ? `?${new URLSearchParams(pairs).toString()}` : ''));

const paramValue = fc.oneof(
  fc.constantFrom('latest', 'ro-known', 'ro-unknown', '%00', '..', 'a%2Fb'),
  fc.string({ minLength: 1, maxLength: 8 }).map(encodeURIComponent),
);

/** OTLP signals the server does not implement: 501 like upstream. */
const NOT_IMPLEMENTED = new Set(['/v1/metrics', '/v1/logs', '/v1/development/profiles']);

/** Every response must be < 500 (501 on the unimplemented OTLP signals); the server must still answer afterwards. */
async function expectClientStatus(
  h: Harness,
  req: { method: Method; url: string; payload?: unknown; headers?: Record<string, string> },
) {
  const res = await h.server.app.inject(req as never);
  const path = req.url.split('?')[0]!;
  const limit = NOT_IMPLEMENTED.has(path) ? 502 : 500;
  expect(
    res.statusCode,
    `${JSON.stringify(req).slice(0, 300)} → ${res.body.slice(0, 300)}`,
  ).toBeLessThan(limit);
  return res;
}

describe('fuzz: no input makes any route answer 5xx', () => {
  it.each([
    ['memory', () => new InMemoryLightningStore()],
    ['sqlite', () => new SqliteLightningStore({ path: ':memory:' })],
  ] as const)(
    '%s: every REST route, random bodies, content types, queries and path params',
    { timeout: 120_000 },
    async (_name, makeStore) => {
      const h = await harness({ metrics: true }, makeStore());
      const known = await h.store.startRollout({ input: 1 });
      const routes = routesOf(h);
      expect(routes.length).toBeGreaterThanOrEqual(40);
      for (const { method, path } of routes) {
        await fc.assert(
          fc.asyncProperty(
            body,
            contentType,
            query,
            paramValue,
            async (payload, type, q, param) => {
              const url =
                path.replace(/:[a-z_]+/g, (name) =>
                  param === 'ro-known' && name === ':rollout_id' ? known.rollout_id : param,
                ) + q;
              await expectClientStatus(h, {
                method,
                url,
                ...(method === 'POST' ? { payload } : {}),
                headers: type ? { 'content-type': type } : {},
              });
            },
          ),
          { numRuns: 15 },
        );
      }
      expect((await h.server.app.inject({ method: 'GET', url: '/v1/agl/health' })).statusCode).toBe(
        200,
      );
      expect((await h.store.getRolloutById(known.rollout_id))?.rollout_id).toBe(known.rollout_id);
    },
  );

  it('OTLP protobuf: random, truncated and bit-flipped export requests', {
    timeout: 120_000,
  }, async () => {
    const h = await harness();
    const rollout = await h.store.startRollout({ input: 1 });
    const valid = request(
      resourceSpans(attribution(rollout.rollout_id, rollout.attempt.attempt_id), [
        span({ spanId: SPAN_ID(1) }),
        span({ spanId: SPAN_ID(2) }),
      ]),
    );
    const mutated = fc
      .tuple(
        fc.integer({ min: 0, max: valid.length }),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 6 }),
      )
      .map(([cut, flips]) => {
        const bytes = Buffer.from(valid.subarray(0, cut));
        for (const [at, value] of flips) if (bytes.length) bytes[at % bytes.length] = value;
        return bytes;
      });
    const payload = fc.oneof(
      mutated,
      fc.uint8Array({ maxLength: 256 }).map((b) => Buffer.from(b)),
    );
    await fc.assert(
      fc.asyncProperty(payload, fc.boolean(), async (bytes, gzip) => {
        const { gzipSync } = await import('node:zlib');
        await expectClientStatus(h, {
          method: 'POST',
          url: '/v1/traces',
          payload: gzip ? gzipSync(bytes) : bytes,
          headers: {
            'content-type': 'application/x-protobuf',
            ...(gzip ? { 'content-encoding': 'gzip' } : {}),
          },
        });
      }),
      { numRuns: 400 },
    );
    expect((await h.server.app.inject({ method: 'GET', url: '/v1/agl/health' })).statusCode).toBe(
      200,
    );
  });

  it('OTLP JSON: random values in every position of an export request', {
    timeout: 120_000,
  }, async () => {
    const h = await harness();
    const rollout = await h.store.startRollout({ input: 1 });
    const attrs = [
      { key: 'agentlightning.rollout_id', value: { stringValue: rollout.rollout_id } },
      { key: 'agentlightning.attempt_id', value: { stringValue: rollout.attempt.attempt_id } },
    ];
    const anyValue = fc.letrec((tie) => ({
      v: fc.oneof(
        { depthSize: 'small' },
        jsonValue,
        fc.record({ stringValue: jsonValue }),
        fc.record({ intValue: fc.oneof(fc.string(), fc.integer(), jsonValue) }),
        fc.record({ doubleValue: jsonValue }),
        fc.record({ bytesValue: fc.string() }),
        fc.record({ arrayValue: fc.record({ values: fc.array(tie('v'), { maxLength: 3 }) }) }),
        fc.record({
          kvlistValue: fc.record({
            values: fc.array(fc.record({ key: fc.string(), value: tie('v') }), { maxLength: 3 }),
          }),
        }),
      ),
    })).v;
    const spanJson = fc.record(
      {
        traceId: fc.oneof(fc.constant('ab'.repeat(16)), jsonValue),
        spanId: fc.oneof(fc.constant('cd'.repeat(8)), jsonValue),
        parentSpanId: jsonValue,
        name: jsonValue,
        startTimeUnixNano: fc.oneof(fc.constant('1700000000000000000'), jsonValue),
        status: jsonValue,
        attributes: fc.oneof(
          fc.array(fc.record({ key: fc.string(), value: anyValue }), { maxLength: 3 }),
          jsonValue,
        ),
        events: jsonValue,
        links: jsonValue,
      },
      { requiredKeys: [] },
    );
    const req = fc.oneof(
      fc.array(spanJson, { maxLength: 3 }).map((spans) => ({
        resourceSpans: [{ resource: { attributes: attrs }, scopeSpans: [{ spans }] }],
      })),
      jsonValue,
    );
    await fc.assert(
      fc.asyncProperty(req, async (value) => {
        await expectClientStatus(h, {
          method: 'POST',
          url: '/v1/traces',
          payload: JSON.stringify(value) ?? 'null',
          headers: { 'content-type': 'application/json' },
        });
      }),
      { numRuns: 400 },
    );
    expect((await h.server.app.inject({ method: 'GET', url: '/v1/agl/health' })).statusCode).toBe(
      200,
    );
  });
});
