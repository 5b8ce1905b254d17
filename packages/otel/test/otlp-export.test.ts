import { LightningStoreClient } from '@arclight/client';
import { findFinalReward, getRewardsFromSpan, type Span } from '@arclight/core';
import {
  createLightningStoreServer,
  decodeProtobufTraces,
  type LightningStoreServer,
} from '@arclight/server';
import { InMemoryLightningStore } from '@arclight/store';
import { freePort } from '@arclight/test-fixtures/python';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  emitMessage,
  emitReward,
  encodeOtlpRequest,
  LightningTracer,
  operation,
  otlpTracesUrl,
  type ReadableSpanLike,
} from '../src/index.js';
import { newAttempt, recordingLogger, sleep } from './support/stores.js';

let store: InMemoryLightningStore;
let server: LightningStoreServer;
let url: string;
const tracers: LightningTracer[] = [];

beforeAll(async () => {
  store = new InMemoryLightningStore();
  server = createLightningStoreServer(store, { port: 0 });
  url = await server.listen();
});
afterEach(async () => {
  await Promise.all(tracers.splice(0).map((t) => t.shutdown()));
});
afterAll(async () => {
  await server.close();
});

function track(tracer: LightningTracer): LightningTracer {
  tracers.push(tracer);
  return tracer;
}

const byName = (spans: Span[], name: string) => spans.find((s) => s.name === name)!;

describe('export over OTLP to a remote store', () => {
  it('sends a LightningStoreClient store OTLP, attributed by resource attributes', async () => {
    const client = new LightningStoreClient(url);
    const tracer = track(new LightningTracer({ store: client }));
    expect(tracer.destination.kind).toBe('otlp');
    const a = await newAttempt(client, 'a');
    const b = await newAttempt(client, 'b');

    const run = (ids: { rolloutId: string; attemptId: string }, label: string, delay: number) =>
      tracer.traceContext(ids, () =>
        operation.scope({ name: `solve-${label}` }, async (op) => {
          op.setInput(label);
          await sleep(delay);
          emitMessage(`thinking about ${label}`);
          await new Promise((resolve) => setTimeout(resolve, delay));
          emitReward({ score: label === 'a' ? 0.25 : 0.75, cost: 2 }, { primaryKey: 'score' });
          op.setOutput(label.toUpperCase());
          return label;
        }),
      );
    expect(await Promise.all([run(a, 'a', 12), run(b, 'b', 3)])).toEqual(['a', 'b']);
    expect(tracer.stats).toMatchObject({ exported: 6, dropped: 0 });

    for (const [ids, label, reward] of [
      [a, 'a', 0.25],
      [b, 'b', 0.75],
    ] as const) {
      const spans = (await store.querySpans(ids.rolloutId)).items;
      expect(spans.map((s) => s.name).sort()).toEqual([
        'agentlightning.annotation',
        'agentlightning.message',
        'agentlightning.operation',
      ]);
      expect(spans.every((s) => s.attempt_id === ids.attemptId)).toBe(true);
      expect(spans.map((s) => s.sequence_id).sort()).toEqual([1, 2, 3]);
      const op = byName(spans, 'agentlightning.operation');
      expect(op.attributes).toEqual({
        'agentlightning.operation.name': `solve-${label}`,
        'agentlightning.operation.input.args.0': label,
        'agentlightning.operation.output': label.toUpperCase(),
      });
      expect(byName(spans, 'agentlightning.message').parent_id).toBe(op.span_id);
      expect(byName(spans, 'agentlightning.annotation').parent_id).toBe(op.span_id);
      expect(getRewardsFromSpan(byName(spans, 'agentlightning.annotation'))).toEqual([
        { name: 'score', value: reward },
        { name: 'cost', value: 2 },
      ]);
      expect(findFinalReward(spans)).toBe(reward);
      expect(op.resource.attributes).toMatchObject({
        'service.name': 'arclight-agent',
        'agentlightning.rollout_id': ids.rolloutId,
        'agentlightning.attempt_id': ids.attemptId,
      });
      // Attribution travels in the resource, not in the span's own attributes.
      expect(op.attributes['agentlightning.rollout_id']).toBeUndefined();
    }
    // getLastTrace still returns the spans, with local sequence ids (the server allocates the real ones).
    expect(tracer.getLastTrace()).toHaveLength(3);
    await client.close();
  });

  it('sends to an explicit otlpEndpoint (store root or full /v1/traces URL)', async () => {
    expect(otlpTracesUrl('http://h:4747/')).toBe('http://h:4747/v1/traces');
    expect(otlpTracesUrl('http://h:4747/v1/traces')).toBe('http://h:4747/v1/traces');
    const tracer = track(new LightningTracer({ otlpEndpoint: `${url}/v1/traces` }));
    const ids = await newAttempt(store);
    await tracer.traceContext(ids, () => emitReward(0.5));
    const spans = (await store.querySpans(ids.rolloutId)).items;
    expect(findFinalReward(spans)).toBe(0.5);
  });

  it('sends otlpHeaders, and the headers of a store that offers otlpTracesHeaders()', async () => {
    const protectedStore = new InMemoryLightningStore();
    const guarded = createLightningStoreServer(protectedStore, { port: 0, token: 's3cret' });
    const guardedUrl = await guarded.listen();
    try {
      const ids = await newAttempt(protectedStore);
      const denied = track(new LightningTracer({ otlpEndpoint: guardedUrl, logger: null }));
      await denied.traceContext(ids, () => emitReward(0.1));
      expect(denied.stats).toMatchObject({ exported: 0, dropped: 1, retries: 0 });

      const allowed = track(
        new LightningTracer({
          otlpEndpoint: guardedUrl,
          otlpHeaders: { Authorization: 'Bearer s3cret' },
        }),
      );
      await allowed.traceContext(ids, () => emitReward(0.5));
      expect(allowed.stats).toMatchObject({ exported: 1, dropped: 0 });

      // A store that knows its headers (LightningStoreClient's `otlpTracesHeaders()`) needs no extra option.
      const client = new LightningStoreClient(guardedUrl, { token: 's3cret' });
      const viaStore = track(new LightningTracer({ store: client }));
      await viaStore.traceContext(ids, () => emitReward(0.9));
      expect(viaStore.stats).toMatchObject({ exported: 1, dropped: 0 });
      const stored = (await protectedStore.querySpans(ids.rolloutId)).items;
      expect(stored).toHaveLength(2);
      expect(findFinalReward(stored)).toBe(0.9);
      await client.close();
    } finally {
      await guarded.close();
    }
  });

  it('drops and counts spans when the server is unreachable; the agent is unaffected', async () => {
    const port = await freePort();
    const logger = recordingLogger();
    const tracer = track(
      new LightningTracer({
        otlpEndpoint: `http://127.0.0.1:${port}`,
        logger,
        maxRetries: 1,
        retryDelayMillis: 1,
      }),
    );
    const value = await tracer.traceContext({ rolloutId: 'ro-x', attemptId: 'at-x' }, () => {
      emitReward(1);
      return 'still fine';
    });
    expect(value).toBe('still fine');
    expect(tracer.stats).toMatchObject({ exported: 0, dropped: 1, failedExports: 1, retries: 1 });
    expect(logger.messages[0]).toMatch(/dropped 1 span\(s\) of rollout\(s\) ro-x/);
  });

  it('does not retry spans the server refuses (HTTP 4xx)', async () => {
    const logger = recordingLogger();
    const tracer = track(
      new LightningTracer({ otlpEndpoint: `${url}/v1/agl/no-such-route`, logger, maxRetries: 3 }),
    );
    await tracer.traceContext({ rolloutId: 'ro-y', attemptId: 'at-y' }, () => emitReward(1));
    expect(tracer.stats).toMatchObject({ dropped: 1, retries: 0, failedExports: 1 });
    expect(logger.messages[0]).toMatch(/refused them: .*HTTP 4\d\d/);
  });

  it('encodes one ResourceSpans per rollout/attempt when a batch mixes rollouts', () => {
    const tracer = track(new LightningTracer({ activate: false }));
    const spans: ReadableSpanLike[] = [];
    for (const name of ['one', 'two', 'three']) {
      const span = tracer.getTracer('t').startSpan(name);
      span.end();
      spans.push(span as unknown as ReadableSpanLike);
    }
    const bytes = encodeOtlpRequest([
      { readable: spans[0]!, attribution: { rolloutId: 'ro-1', attemptId: 'at-1' } },
      { readable: spans[1]!, attribution: { rolloutId: 'ro-2', attemptId: 'at-2' } },
      { readable: spans[2]!, attribution: { rolloutId: 'ro-1', attemptId: 'at-1' } },
    ]);
    const decoded = decodeProtobufTraces(bytes);
    expect(
      decoded.map((rs) => ({
        rollout: rs.resourceAttributes['agentlightning.rollout_id'],
        attempt: rs.resourceAttributes['agentlightning.attempt_id'],
        service: rs.resourceAttributes['service.name'],
        names: rs.spans.map((s) => s.name),
        spanAttributes: rs.spans.map((s) => s.attributes),
      })),
    ).toEqual([
      {
        rollout: 'ro-1',
        attempt: 'at-1',
        service: 'arclight-agent',
        names: ['one', 'three'],
        spanAttributes: [{}, {}],
      },
      {
        rollout: 'ro-2',
        attempt: 'at-2',
        service: 'arclight-agent',
        names: ['two'],
        spanAttributes: [{}],
      },
    ]);
  });
});
