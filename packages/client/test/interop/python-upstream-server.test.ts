import { LLM, PromptTemplate, type Span } from '@arclight/core';
import {
  CLOCK_DEPENDENT_CASES,
  describeLightningStoreConformance,
  makeSpan,
} from '@arclight/store/testing';
import { PYTHON_TIMEOUT_MS, requirePython, SKIP_PYTHON } from '@arclight/test-fixtures/python';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightningStoreClient } from '../../src/index.js';
import { ServedClient } from '../support/served-store.js';
import { UpstreamStoreFarm } from '../support/upstream-farm.js';

/**
 * Our TypeScript client against upstream's own Python server (agentlightning 0.3.0 `LightningStoreServer`
 * over an `InMemoryLightningStore`), through the conformance suite and a direct scenario.
 */

/** Upstream answers store errors with 500, which the client retries; keep the schedule short. */
const UPSTREAM_CLIENT_OPTIONS = { retryDelays: [0.02], healthRetryDelays: [0.02] };

const UPSTREAM_EXCLUSIONS = [
  // The upstream server's store runs on Python's wall clock; the suite's injected clock cannot reach it.
  ...CLOCK_DEPENDENT_CASES,
  // Upstream's UpdateAttemptRequest forbids `null` attribute values (400): attempt fields cannot be cleared.
  'attempt.update-unset-vs-null',
  // addManySpans goes through OTLP; upstream's /v1/traces answers an empty ExportTraceServiceResponse, so
  // duplicates of earlier writes cannot be told apart from stored spans.
  'span.add-many',
  // Upstream's /v1/traces fails a batch with an unknown attempt as a bare `500 Internal Server Error`
  // (no detail naming the attempt) — quirk: OTLP errors carry no store message.
  'span.add-many-atomic',
  // Upstream's pagination check answers "Offset must be greater than or equal to 0": the message does not
  // contain the field name `offset` as the suite requires.
  'validation.pagination',
];

describe.skipIf(SKIP_PYTHON)("LightningStoreClient against upstream's Python server", () => {
  let farm: UpstreamStoreFarm | undefined;

  beforeAll(async () => {
    requirePython();
    farm = await UpstreamStoreFarm.start();
  }, PYTHON_TIMEOUT_MS);

  afterAll(async () => {
    await farm?.stop();
  });

  const client = async (scanDebounceSeconds = 0): Promise<ServedClient> => {
    if (!farm) throw new Error('the upstream store farm did not start');
    const url = await farm.newStore(scanDebounceSeconds);
    return new ServedClient(url, () => farm!.stopStore(url), UPSTREAM_CLIENT_OPTIONS);
  };

  describeLightningStoreConformance({
    name: 'LightningStoreClient → agentlightning 0.3.0 LightningStoreServer',
    create: ({ scanDebounceSeconds }) => client(scanDebounceSeconds),
    exclude: UPSTREAM_EXCLUSIONS,
    // Upstream's server turns every store exception into HTTP 500 (quirk §12.2): errors are StoreErrors
    // whose message carries the Python exception line.
    typedErrors: false,
  });

  describe('direct scenario', () => {
    it('runs a rollout end to end, with spans through /v1/agl/spans and OTLP', async () => {
      const store: LightningStoreClient = await client();
      try {
        const resources = await store.addResources({
          main_llm: new LLM({ endpoint: 'http://llm.local/v1', model: 'qwen' }),
          prompt: new PromptTemplate({ template: 'Solve {task}', engine: 'f-string' }),
        });
        expect(resources.resources.main_llm).toBeInstanceOf(LLM);
        expect(resources.resources.prompt).toBeInstanceOf(PromptTemplate);
        expect((await store.getLatestResources())?.resources_id).toBe(resources.resources_id);

        const queued = await store.enqueueRollout({ input: { task: '1+1' }, mode: 'train' });
        expect(queued.resources_id).toBe(resources.resources_id);
        const got = await store.dequeueRollout({ worker_id: 'ts-worker' });
        expect(got?.rollout_id).toBe(queued.rollout_id);
        const rid = got!.rollout_id;
        const aid = got!.attempt.attempt_id;

        const seq = await store.getNextSpanSequenceId(rid, aid);
        const first = makeSpan(
          { rollout_id: rid, attempt_id: aid, sequence_id: seq },
          { name: 'ts.rest' },
        );
        expect(await store.addSpan(first)).toMatchObject({
          span_id: first.span_id,
          name: 'ts.rest',
        });
        expect(await store.addSpan(first)).toBeNull();

        const batch: Span[] = [2, 3].map((n) =>
          makeSpan(
            { rollout_id: rid, attempt_id: aid, sequence_id: seq + n },
            {
              name: `ts.otlp.${n}`,
              attributes: { 'gen_ai.usage.total_tokens': 10 * n, tags: ['x', 'y'] },
              start_time: 1_700_000_000.123456 + n,
              end_time: 1_700_000_000.5 + n,
            },
          ),
        );
        expect(await store.addManySpans(batch)).toEqual(batch);
        const spans = await store.querySpans(rid);
        expect(spans.items.map((s) => [s.name, s.sequence_id])).toEqual([
          ['ts.rest', seq],
          ['ts.otlp.2', seq + 2],
          ['ts.otlp.3', seq + 3],
        ]);
        const viaOtlp = spans.items[2]!;
        expect(viaOtlp.attributes).toMatchObject({
          'gen_ai.usage.total_tokens': 30,
          tags: ['x', 'y'],
        });
        expect(viaOtlp.start_time).toBe(1_700_000_003.123456);
        expect(viaOtlp.parent).toBeNull();

        expect((await store.getLatestAttempt(rid))?.status).toBe('running');
        await store.updateAttempt(rid, aid, { status: 'succeeded' });
        const finished = await store.waitForRollouts({
          rollout_ids: [rid, 'ro-unknown'],
          timeout: 5,
        });
        expect(finished.map((r) => [r.rollout_id, r.status])).toEqual([[rid, 'succeeded']]);

        // Upstream answers 500 (response validation of None) here; the client maps it to null.
        expect(await store.getRolloutById('ro-unknown')).toBeNull();
        expect(await store.getWorkerById('nobody')).toBeNull();
        expect((await store.getWorkerById('ts-worker'))?.status).toBe('idle');
        const stats = await store.statistics();
        expect(stats.total_rollouts).toBe(1);
        expect(stats.total_spans).toBe(3);
      } finally {
        await store.close();
      }
    });
  });
});
