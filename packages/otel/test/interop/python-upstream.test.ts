import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LightningStoreClient } from '@arclight/client';
import {
  type AglStore,
  hasPython,
  requirePython,
  runPython,
  SKIP_PYTHON,
  startAglStore,
  summaryOf,
} from '@arclight/test-fixtures/python';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  emitAnnotation,
  emitMessage,
  emitObject,
  emitReward,
  LightningTracer,
  makeLinkAttributes,
  makeTagAttributes,
  operation,
} from '../../src/index.js';
import { newAttempt, sleep } from '../support/stores.js';

const READ_BACK = fileURLToPath(new URL('python/read_back.py', import.meta.url));

/**
 * Cross-check with upstream agentlightning 0.3.0: spans exported by Arclight's tracer to upstream's Python
 * `agl store` (over OTLP) are read back by a Python script with upstream's `LightningStoreClient.query_spans`
 * and upstream's emitter readers; and upstream's own emitters (propagate=False) must build exactly the
 * attributes ours build.
 */

interface PythonSpan {
  name: string;
  rollout_id: string;
  attempt_id: string;
  sequence_id: number;
  span_id: string;
  parent_id: string | null;
  status: string;
  attributes: Record<string, unknown>;
  resource: Record<string, unknown>;
}

interface PythonRollout {
  spans: PythonSpan[];
  final_reward: number | null;
  reward_values: number[];
  reward_dimensions: Array<Array<{ name: string; value: number }>>;
  messages: string[];
  objects: unknown[];
}

interface Summary {
  rollouts: Record<string, PythonRollout>;
  encodings: Array<Record<string, unknown>>;
}

/** Our attributes for the operation case (the span is readable once the scope has ended). */
function captureOperation(): Record<string, unknown> {
  let handle: Parameters<Parameters<typeof operation.scope>[1]>[0] | undefined;
  operation.scope({ propagate: false, name: 'lookup', team: { id: 7 } }, (op) => {
    handle = op;
    op.setInput('q', { k: 3 });
    op.setNamedInput({ query: 'weather', filters: ['today'] });
    op.setOutput({ answer: ['sunny', 'warm'] });
  });
  return handle!.span().attributes;
}

/** The same encoding cases, run by upstream's emitters (Python) and ours. */
const CASES: Array<{ case: Record<string, unknown>; ours: () => Record<string, unknown> }> = [
  {
    case: { kind: 'reward', value: 0.5 },
    ours: () => emitReward(0.5, { propagate: false }).attributes,
  },
  {
    case: {
      kind: 'reward',
      value: { efficiency: 0.8, task_completion: 1.5, polite: 0.25 },
      primary_key: 'task_completion',
      links: { 'gen_ai.response.id': 'resp-1' },
      tags: ['fast', 'reliable'],
      attributes: { judge: { model: 'm', votes: [1, 2] } },
    },
    ours: () =>
      emitReward(
        { efficiency: 0.8, task_completion: 1.5, polite: 0.25 },
        {
          propagate: false,
          primaryKey: 'task_completion',
          attributes: {
            judge: { model: 'm', votes: [1, 2] },
            ...makeLinkAttributes({ 'gen_ai.response.id': 'resp-1' }),
            ...makeTagAttributes(['fast', 'reliable']),
          },
        },
      ).attributes,
  },
  {
    case: {
      kind: 'annotation',
      value: { a: { b: 'x', c: [2, 3] }, mixed: [1, 'y'], objs: [{ k: true }] },
    },
    ours: () =>
      emitAnnotation(
        { a: { b: 'x', c: [2, 3] }, mixed: [1, 'y'], objs: [{ k: true }] },
        { propagate: false },
      ).attributes,
  },
  {
    case: {
      kind: 'message',
      value: 'hello',
      attributes: { meta: { n: 1, tags: ['a', 'b'] }, none: null, blob: { é: [1, { z: null }] } },
    },
    ours: () =>
      emitMessage(
        'hello',
        { meta: { n: 1, tags: ['a', 'b'] }, none: null, blob: { é: [1, { z: null }] } },
        { propagate: false },
      ).attributes,
  },
  ...(
    ['text', 42, 1.5, true, null, [1, 'a', null], { name: 'café', nested: { ok: false } }] as const
  ).map((value) => ({
    case: { kind: 'object', value, attributes: { source: 'test' } },
    ours: () => emitObject(value, { source: 'test' }, { propagate: false }).attributes,
  })),
  {
    case: {
      kind: 'operation',
      options: { name: 'lookup', team: { id: 7 } },
      args: ['q', { k: 3 }],
      kwargs: { query: 'weather', filters: ['today'] },
      output: { answer: ['sunny', 'warm'] },
    },
    ours: captureOperation,
  },
];

describe.skipIf(SKIP_PYTHON)(
  "cross-check with upstream's Python agl store and emitter readers",
  () => {
    let store: AglStore | undefined;
    let url = '';
    let workDir = '';

    beforeAll(async () => {
      // Without the venv the test below fails (requirePython); there is no server to start.
      if (!hasPython()) return;
      store = await startAglStore();
      url = store.url;
      workDir = mkdtempSync(join(tmpdir(), 'arclight-otel-py-'));
    });

    afterAll(async () => {
      await store?.stop();
      if (workDir) rmSync(workDir, { recursive: true, force: true });
    });

    it('upstream reads back rewards, messages, objects and operations exported by our tracer', async () => {
      requirePython();
      const client = new LightningStoreClient(url);
      const tracer = new LightningTracer({ store: client });
      try {
        const a = await newAttempt(client, 'task a');
        const b = await newAttempt(client, 'task b');
        const agent = (label: string, delay: number, final: number) => () =>
          operation.scope({ name: `solve-${label}` }, async (op) => {
            op.setInput(`${label}: 2+2`);
            await sleep(delay);
            emitMessage(`thinking about ${label}`);
            emitObject({ steps: [1, 2], label });
            emitReward({ accuracy: 1, brevity: 0.5 }, { primaryKey: 'accuracy' });
            await new Promise((r) => setTimeout(r, delay));
            emitReward(final);
            op.setOutput(4);
            return label;
          });
        await Promise.all([
          tracer.traceContext(a, agent('a', 15, 0.75)),
          tracer.traceContext(b, agent('b', 2, 0.25)),
        ]);
        expect(tracer.stats).toMatchObject({ exported: 10, dropped: 0 });

        const casesPath = join(workDir, 'cases.json');
        writeFileSync(casesPath, JSON.stringify(CASES.map((c) => c.case)));
        const summary = summaryOf<Summary>(
          await runPython([READ_BACK, url, casesPath, a.rolloutId, b.rolloutId]),
        );

        for (const [ids, label, final] of [
          [a, 'a', 0.75],
          [b, 'b', 0.25],
        ] as const) {
          const rollout = summary.rollouts[ids.rolloutId]!;
          expect(rollout.final_reward).toBe(final);
          expect(rollout.reward_values).toEqual([1, final]);
          expect(rollout.reward_dimensions).toEqual([
            [
              { name: 'accuracy', value: 1 },
              { name: 'brevity', value: 0.5 },
            ],
            [{ name: 'primary', value: final }],
          ]);
          expect(rollout.messages).toEqual([`thinking about ${label}`]);
          expect(rollout.objects).toEqual([{ steps: [1, 2], label }]);
          const spans = rollout.spans;
          expect(spans).toHaveLength(5);
          expect(
            spans.every((s) => s.rollout_id === ids.rolloutId && s.attempt_id === ids.attemptId),
          ).toBe(true);
          expect(spans.map((s) => s.sequence_id)).toEqual([1, 2, 3, 4, 5]);
          const op = spans.find((s) => s.name === 'agentlightning.operation')!;
          expect(op.attributes).toEqual({
            'agentlightning.operation.name': `solve-${label}`,
            'agentlightning.operation.input.args.0': `${label}: 2+2`,
            'agentlightning.operation.output': 4,
          });
          expect(spans.filter((s) => s !== op).every((s) => s.parent_id === op.span_id)).toBe(true);
          expect(op.resource).toMatchObject({
            'agentlightning.rollout_id': ids.rolloutId,
            'agentlightning.attempt_id': ids.attemptId,
          });
        }

        // Upstream's emitters build exactly the attributes ours build.
        expect(summary.encodings).toHaveLength(CASES.length);
        CASES.forEach((c, i) => {
          expect({ case: c.case, attributes: summary.encodings[i] }).toEqual({
            case: c.case,
            attributes: c.ours(),
          });
        });
      } finally {
        await tracer.shutdown();
        await client.close();
      }
    }, 240_000);
  },
);
