import { InMemoryLightningStore, type LightningStore, SqliteLightningStore } from '@arclight/store';
import { afterEach, describe, expect, it } from 'vitest';
import { decodeJsonTraces, ingestOtlpSpans, otlpToSpans } from '../src/index.js';

/**
 * Group commit: span batches of requests that reach `ingestOtlpSpans` in the same event-loop turn are stored
 * together, yet each request still gets its own outcome.
 */

const kv = (key: string, value: string) => ({ key, value: { stringValue: value } });

let nextSpanId = 1;
const spanId = () => (nextSpanId++).toString(16).padStart(16, '0');

/** A decoded+converted export of `names.length` spans attributed to (rolloutId, attemptId). */
function batch(rolloutId: string, attemptId: string, names: string[], unattributed = 0) {
  const spans = names.map((name) => ({ traceId: '0a', spanId: spanId(), name }));
  const bare = Array.from({ length: unattributed }, () => ({
    traceId: '0b',
    spanId: spanId(),
    name: 'bare',
  }));
  return otlpToSpans(
    decodeJsonTraces({
      resourceSpans: [
        {
          resource: {
            attributes: [
              kv('agentlightning.rollout_id', rolloutId),
              kv('agentlightning.attempt_id', attemptId),
            ],
          },
          scopeSpans: [{ spans }],
        },
        { scopeSpans: [{ spans: bare }] },
      ],
    }),
  );
}

const stores: LightningStore[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});

const backends: Array<[string, () => LightningStore]> = [
  ['memory', () => new InMemoryLightningStore()],
  ['sqlite', () => new SqliteLightningStore({ path: ':memory:' })],
];

describe.each(backends)('OTLP ingest group commit (%s)', (_name, open) => {
  async function started(store: LightningStore) {
    const rollout = await store.startRollout({ input: 1 });
    return { rolloutId: rollout.rollout_id, attemptId: rollout.attempt.attempt_id };
  }

  it('stores the batches of one turn together, each request answered with its own counts', async () => {
    const store = open();
    stores.push(store);
    const a = await started(store);
    const b = await started(store);
    const results = await Promise.all([
      ingestOtlpSpans(store, batch(a.rolloutId, a.attemptId, ['a1', 'a2'])),
      ingestOtlpSpans(store, batch(b.rolloutId, b.attemptId, ['b1'], 2)),
      ingestOtlpSpans(store, batch(a.rolloutId, a.attemptId, ['a3'])),
    ]);
    expect(results).toEqual([
      { accepted: 2, rejected: 0, errorMessage: '' },
      {
        accepted: 1,
        rejected: 2,
        errorMessage:
          '2 span(s) without agentlightning.rollout_id and agentlightning.attempt_id (resource or span attributes)',
      },
      { accepted: 1, rejected: 0, errorMessage: '' },
    ]);
    const names = async (rolloutId: string) =>
      (await store.querySpans(rolloutId, { sort_by: 'sequence_id' })).items.map((s) => s.name);
    expect(await names(a.rolloutId)).toEqual(['a1', 'a2', 'a3']);
    expect(await names(b.rolloutId)).toEqual(['b1']);
  });

  it('a refused request in the group is refused alone; the others are stored', async () => {
    const store = open();
    stores.push(store);
    const a = await started(store);
    const results = await Promise.all([
      ingestOtlpSpans(store, batch(a.rolloutId, a.attemptId, ['a1'])),
      ingestOtlpSpans(store, batch('ro-unknown', 'at-unknown', ['x1', 'x2'])),
      ingestOtlpSpans(store, batch(a.rolloutId, a.attemptId, ['a2'])),
    ]);
    expect(results[0]).toEqual({ accepted: 1, rejected: 0, errorMessage: '' });
    expect(results[1]).toMatchObject({ accepted: 0, rejected: 2 });
    expect(results[1]!.errorMessage).toMatch(/^2 span\(s\) rejected: .*ro-unknown/);
    expect(results[2]).toEqual({ accepted: 1, rejected: 0, errorMessage: '' });
    const stored = (await store.querySpans(a.rolloutId)).items.map((s) => s.name).sort();
    expect(stored).toEqual(['a1', 'a2']);
  });

  it('a store failure reaches every request of the group as its own error', async () => {
    const store = open();
    const a = await started(store);
    await store.close();
    const outcomes = await Promise.allSettled([
      ingestOtlpSpans(store, batch(a.rolloutId, a.attemptId, ['a1'])),
      ingestOtlpSpans(store, batch(a.rolloutId, a.attemptId, ['a2'])),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected']);
    const [first, second] = outcomes as PromiseRejectedResult[];
    expect(first!.reason).toBeInstanceOf(Error);
    expect(second!.reason).toBeInstanceOf(Error);
    expect(first!.reason).not.toBe(second!.reason);
  });

  it('batches of different turns are stored separately', async () => {
    const store = open();
    stores.push(store);
    const a = await started(store);
    expect(await ingestOtlpSpans(store, batch(a.rolloutId, a.attemptId, ['a1']))).toEqual({
      accepted: 1,
      rejected: 0,
      errorMessage: '',
    });
    const late = ingestOtlpSpans(store, batch('ro-unknown', 'at-unknown', ['x1']));
    expect(await late).toMatchObject({ accepted: 0, rejected: 1 });
    expect((await store.querySpans(a.rolloutId)).total).toBe(1);
  });
});
