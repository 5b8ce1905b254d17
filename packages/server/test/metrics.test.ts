import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { harness, listening, span } from './helpers.js';
import { attribution, request, resourceSpans, SPAN_ID, span as wireSpan } from './wire.js';

const A = '/v1/agl';

/** The value of one sample line (`name{labels} value`) in a Prometheus exposition, or undefined. */
function sample(
  text: string,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*)(\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries(
      [...(match[3] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    );
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) return Number(match[4]);
  }
  return undefined;
}

describe('Prometheus metrics', () => {
  it('are off unless asked for', async () => {
    const { call } = await harness();
    expect((await call('GET', '/metrics')).status).toBe(404);
  });

  it('a scrape after a workload shows its counts', { timeout: 30_000 }, async () => {
    const { url, store } = await listening({ metrics: true, limits: { maxSpansPerRequest: 2 } });
    const post = (path: string, body: unknown) =>
      fetch(`${url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    // 3 enqueued rollouts, one dequeued and finished.
    const enqueued = await post(`${A}/queues/rollouts/enqueue`, {
      rollouts: [{ input: 1 }, { input: 2 }, { input: 3 }],
    });
    expect(enqueued.status).toBe(201);
    const [attempted] = (await (await post(`${A}/queues/rollouts/dequeue`, {})).json()) as Array<{
      rollout_id: string;
      attempt: { attempt_id: string };
    }>;
    const rolloutId = attempted!.rollout_id;
    const attemptId = attempted!.attempt.attempt_id;
    // 1 span over REST, 2 over OTLP, then an OTLP request over the span limit and a bad JSON body.
    expect((await post(`${A}/spans`, span(rolloutId, attemptId))).status).toBe(201);
    const otlp = (n: number) =>
      fetch(`${url}/v1/traces`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-protobuf' },
        body: request(
          resourceSpans(
            attribution(rolloutId, attemptId),
            Array.from({ length: n }, (_, i) => wireSpan({ spanId: SPAN_ID(100 + i) })),
          ),
        ),
      });
    expect((await otlp(2)).status).toBe(200);
    expect((await otlp(3)).status).toBe(413);
    expect(
      (
        await fetch(`${url}${A}/rollouts`, {
          method: 'POST',
          body: '{',
          headers: { 'content-type': 'application/json' },
        })
      ).status,
    ).toBe(400);
    await store.updateRollout(rolloutId, { status: 'succeeded' });
    for (let i = 0; i < 4; i++) expect((await fetch(`${url}${A}/health`)).status).toBe(200);

    const res = await fetch(`${url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    const text = await res.text();
    const health = { path: `${A}/health`, method: 'GET', status: '200' };
    expect(sample(text, 'agl_http_total', health)).toBe(4);
    expect(sample(text, 'agl_http_latency_count', health)).toBe(4);
    expect(
      sample(text, 'agl_http_total', { path: '/v1/traces', method: 'POST', status: '413' }),
    ).toBe(1);
    expect(sample(text, 'arclight_spans_ingested_total', { source: 'otlp' })).toBe(2);
    expect(sample(text, 'arclight_spans_ingested_total', { source: 'rest' })).toBe(1);
    expect(sample(text, 'arclight_requests_rejected_total', { reason: 'maxSpansPerRequest' })).toBe(
      1,
    );
    expect(sample(text, 'arclight_requests_rejected_total', { reason: 'bad_request' })).toBe(1);
    expect(sample(text, 'arclight_queue_depth')).toBe(2);
    expect(sample(text, 'arclight_rollouts', { status: 'queuing' })).toBe(2);
    expect(sample(text, 'arclight_rollouts', { status: 'succeeded' })).toBe(1);
    expect(sample(text, 'arclight_store_records', { kind: 'spans' })).toBe(3);
    expect(sample(text, 'arclight_store_records', { kind: 'rollouts' })).toBe(3);
    expect(sample(text, 'arclight_store_span_bytes')).toBeGreaterThan(0);
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);

    // Every metric the Grafana dashboard queries is exposed.
    const dashboard = readFileSync(
      new URL('../grafana/arclight-store.json', import.meta.url),
      'utf8',
    );
    const queried = new Set(dashboard.match(/\b(agl|arclight|process|nodejs)_[a-z0-9_]+/g));
    expect(queried.size).toBeGreaterThan(10);
    for (const name of queried) expect(text, name).toMatch(new RegExp(`^${name}[{ ]`, 'm'));

    // Upstream's path serves the same registry (trailing slash as upstream's mount needs it).
    const upstream = await fetch(`${url}/v1/prometheus/`);
    expect(upstream.status).toBe(200);
    expect(await upstream.text()).toContain('agl_http_total');
  });

  it('read the store statistics once per scrape, and afresh for the next', async () => {
    const { url, store } = await listening({ metrics: true });
    const statistics = vi.spyOn(store, 'statistics');
    await store.enqueueRollout({ input: 1 });
    const first = await (await fetch(`${url}/metrics`)).text();
    expect(statistics).toHaveBeenCalledTimes(1);
    expect(sample(first, 'arclight_store_records', { kind: 'rollouts' })).toBe(1);
    await store.enqueueRollout({ input: 2 });
    const second = await (await fetch(`${url}/metrics`)).text();
    expect(statistics).toHaveBeenCalledTimes(2);
    expect(sample(second, 'arclight_store_records', { kind: 'rollouts' })).toBe(2);
    expect(sample(second, 'arclight_store_span_bytes')).toBe(0);
  });

  it('require the token when one is set', async () => {
    const { call } = await harness({ metrics: true, token: 'tok' });
    expect((await call('GET', '/metrics')).status).toBe(401);
    const ok = await call('GET', '/metrics', undefined, { authorization: 'Bearer tok' });
    expect(ok.status).toBe(200);
    expect(ok.raw.body).toContain('arclight_requests_rejected_total{reason="unauthorized"} 1');
  });
});
