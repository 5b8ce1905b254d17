import type { Span } from '@arclight/core';
import type { LightningStore } from '@arclight/store';
import { OTLPTraceExporter as HttpJsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { describe, expect, it } from 'vitest';
import { listening } from './helpers.js';
import { exportSpans, recordSpans } from './otel.js';

async function twoRollouts(store: LightningStore) {
  const a = await store.startRollout({ input: 'a' });
  const b = await store.startRollout({ input: 'b' });
  return { a, b };
}

function byName(spans: Span[]): Record<string, Span> {
  return Object.fromEntries(spans.map((s) => [s.name, s]));
}

function checkConverted(spans: Span[], resourceRolloutId: string) {
  const { agent, llm } = byName(spans);
  expect(agent).toBeDefined();
  expect(llm).toBeDefined();
  expect(agent!.trace_id).toMatch(/^[0-9a-f]{32}$/);
  expect(agent!.span_id).toMatch(/^[0-9a-f]{16}$/);
  expect(agent!.parent_id).toBeNull();
  expect(llm!.parent_id).toBe(agent!.span_id);
  expect(llm!.trace_id).toBe(agent!.trace_id);
  expect(llm!.parent).toBeNull();
  expect(llm!.context).toEqual({
    trace_id: llm!.trace_id,
    span_id: llm!.span_id,
    is_remote: false,
    trace_state: {},
  });
  expect(llm!.status).toEqual({ status_code: 'ERROR', description: 'rate limited' });
  expect(agent!.status).toEqual({ status_code: 'UNSET', description: null });
  expect(llm!.attributes).toMatchObject({
    'gen_ai.usage.total_tokens': 42,
    'gen_ai.temperature': 0.5,
    ok: true,
  });
  expect(agent!.attributes['agent.tags']).toEqual(['a', 'b']);
  expect(agent!.events).toHaveLength(1);
  expect(agent!.events[0]).toMatchObject({ name: 'thinking', attributes: { step: 1 } });
  expect(agent!.events[0]!.timestamp).toBeGreaterThan(1.6e9);
  expect(agent!.events[0]!.timestamp).toBeLessThan(1e10);
  expect(llm!.links).toEqual([
    {
      context: {
        trace_id: agent!.trace_id,
        span_id: agent!.span_id,
        is_remote: false,
        trace_state: {},
      },
      attributes: { why: 'because' },
    },
  ]);
  expect(agent!.start_time).toBeGreaterThan(1.6e9);
  expect(agent!.end_time).toBeGreaterThanOrEqual(agent!.start_time!);
  expect(agent!.resource.attributes).toMatchObject({
    'service.name': 'arclight-test',
    'agentlightning.rollout_id': resourceRolloutId,
  });
  const seqs = spans.map((s) => s.sequence_id);
  expect(new Set(seqs).size).toBe(seqs.length);
  for (const seq of seqs) expect(seq).toBeGreaterThanOrEqual(1);
}

describe('OTLP/HTTP from the real OpenTelemetry exporters', () => {
  for (const compression of ['none', 'gzip'] as const) {
    it(`protobuf (${compression}): spans land in the store, attributed by resource attributes`, async () => {
      const { url, store } = await listening();
      const { a } = await twoRollouts(store);
      const recorded = await recordSpans({
        'agentlightning.rollout_id': a.rollout_id,
        'agentlightning.attempt_id': a.attempt.attempt_id,
      });
      const exporter = new ProtoExporter({
        url: `${url}/v1/traces`,
        compression: compression as never,
      });
      const result = await exportSpans(exporter, recorded);
      await exporter.shutdown();
      expect(result.error).toBeUndefined();
      expect(result.code).toBe(0);

      const stored = (await store.querySpans(a.rollout_id)).items;
      expect(stored).toHaveLength(2);
      checkConverted(stored, a.rollout_id);
      expect(stored.every((s) => s.attempt_id === a.attempt.attempt_id)).toBe(true);
      // A span is a heartbeat: the attempt is now running.
      expect((await store.getLatestAttempt(a.rollout_id))!.status).toBe('running');
    });
  }

  it('OTLP/JSON from @opentelemetry/exporter-trace-otlp-http is accepted too', async () => {
    const { url, store } = await listening();
    const { a } = await twoRollouts(store);
    const recorded = await recordSpans({
      'agentlightning.rollout_id': a.rollout_id,
      'agentlightning.attempt_id': a.attempt.attempt_id,
    });
    const exporter = new HttpJsonExporter({ url: `${url}/v1/traces` });
    const result = await exportSpans(exporter, recorded);
    await exporter.shutdown();
    expect(result.error).toBeUndefined();
    expect(result.code).toBe(0);
    const stored = (await store.querySpans(a.rollout_id)).items;
    expect(stored).toHaveLength(2);
    checkConverted(stored, a.rollout_id);
  });

  it('span attributes override the resource attribution (rollout, attempt and sequence id)', async () => {
    const { url, store } = await listening();
    const { a, b } = await twoRollouts(store);
    const recorded = await recordSpans(
      {
        'agentlightning.rollout_id': a.rollout_id,
        'agentlightning.attempt_id': a.attempt.attempt_id,
      },
      {
        'agentlightning.rollout_id': b.rollout_id,
        'agentlightning.attempt_id': b.attempt.attempt_id,
        'agentlightning.span_sequence_id': 77,
      },
    );
    const exporter = new ProtoExporter({ url: `${url}/v1/traces` });
    expect((await exportSpans(exporter, recorded)).code).toBe(0);
    await exporter.shutdown();
    expect((await store.querySpans(a.rollout_id)).items.map((s) => s.name).sort()).toEqual([
      'agent',
      'llm',
    ]);
    const redirected = (await store.querySpans(b.rollout_id)).items;
    expect(redirected.map((s) => [s.name, s.attempt_id, s.sequence_id])).toEqual([
      ['redirected', b.attempt.attempt_id, 77],
    ]);
  });

  it('the exporter can carry the token when the server requires one', async () => {
    const { url, store } = await listening({ token: 's3cret' });
    const { a } = await twoRollouts(store);
    const recorded = await recordSpans({
      'agentlightning.rollout_id': a.rollout_id,
      'agentlightning.attempt_id': a.attempt.attempt_id,
    });
    const denied = new ProtoExporter({ url: `${url}/v1/traces` });
    expect((await exportSpans(denied, recorded)).code).not.toBe(0);
    await denied.shutdown();
    expect((await store.querySpans(a.rollout_id)).total).toBe(0);

    const allowed = new ProtoExporter({
      url: `${url}/v1/traces`,
      headers: { authorization: 'Bearer s3cret' },
    });
    expect((await exportSpans(allowed, recorded)).code).toBe(0);
    await allowed.shutdown();
    expect((await store.querySpans(a.rollout_id)).total).toBe(2);
  });
});
