import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  InMemoryLightningStore,
  type LightningStore,
  type QuerySpansParams,
  SqliteLightningStore,
} from '@arclight/store';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { harness, span } from './helpers.js';

// A SQLite store answers span queries with each span's stored JSON text, spliced into the page: the bytes must be
// exactly those the route sent when it serialised the parsed spans.

const A = '/v1/agl';
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'arclight-span-texts-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Spans whose JSON is easy to get subtly wrong: non-ASCII, a lone surrogate, integer-like keys, odd numbers. */
function trickySpans(rolloutId: string, attemptId: string) {
  return [
    span(rolloutId, attemptId, {
      span_id: '00000000000000a1',
      sequence_id: 1,
      name: 'openai.chat.completion',
      attributes: {
        'gen_ai.prompt.0.content': 'é ☃ 😀 "quoted" \\ back\nslash \u0001 \u2028',
        lone: '\ud800 alone',
        numbers: [1e21, 0.1 + 0.2, -0, 2 ** 53 + 2, 5e-324, -1.5],
      },
      extra_field: { '10': 'ten', '2': 'two', b: [{ '1': true }, null], kept: true },
    }),
    span(rolloutId, attemptId, { span_id: '00000000000000b2', sequence_id: 2, name: 'llm' }),
    span(rolloutId, attemptId, { span_id: '00000000000000c3', sequence_id: 3, name: 'tool' }),
  ];
}

async function withSpans(store: LightningStore) {
  const h = await harness({}, store);
  const rollout = (await h.call('POST', `${A}/rollouts`, { input: 1 })).json;
  const second = (await h.call('POST', `${A}/rollouts/${rollout.rollout_id}/attempts`, {})).json;
  for (const s of trickySpans(rollout.rollout_id, second.attempt.attempt_id)) {
    expect((await h.call('POST', `${A}/spans`, s)).status).toBe(201);
  }
  const queued = (
    await h.call('POST', `${A}/queues/rollouts/enqueue`, { rollouts: [{ input: 2 }] })
  ).json[0];
  return { ...h, rolloutId: rollout.rollout_id as string, queuedId: queued.rollout_id as string };
}

describe('span queries answered from stored JSON text', () => {
  it('sends the same bytes as serialising the parsed page, for every shape of query', async () => {
    const store = new SqliteLightningStore({ path: join(dir, 'store.sqlite') });
    const { call, rolloutId, queuedId } = await withSpans(store);
    const parsed = vi.spyOn(store, 'querySpans');
    const cases: Array<[string, QuerySpansParams & { rollout_id: string }]> = [
      ['', { rollout_id: rolloutId }],
      ['&attempt_id=latest', { rollout_id: rolloutId, attempt_id: 'latest' }],
      [
        '&limit=2&offset=1&sort_order=desc',
        { rollout_id: rolloutId, limit: 2, offset: 1, sort_order: 'desc' },
      ],
      [
        '&name_contains=l&filter_logic=or&span_id=00000000000000a1',
        {
          rollout_id: rolloutId,
          name_contains: 'l',
          span_id: '00000000000000a1',
          filter_logic: 'or',
        },
      ],
      ['&limit=1&offset=7', { rollout_id: rolloutId, limit: 1, offset: 7 }],
      ['&attempt_id=latest', { rollout_id: queuedId, attempt_id: 'latest' }],
      ['', { rollout_id: 'ro-unknown' }],
    ];
    const expected: string[] = [];
    for (const [, { rollout_id, ...params }] of cases) {
      expected.push(JSON.stringify(await store.querySpans(rollout_id, params)));
    }
    parsed.mockClear();
    for (const [i, [query, body]] of cases.entries()) {
      const got = await call('GET', `${A}/spans?rollout_id=${body.rollout_id}${query}`);
      expect(got.status).toBe(200);
      expect(got.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(got.raw.body).toBe(expected[i]);
      const searched = await call('POST', `${A}/spans/search`, body);
      expect(searched.raw.body).toBe(expected[i]);
    }
    // The route never parsed a span to answer.
    expect(parsed).not.toHaveBeenCalled();
    expect(JSON.parse(expected[0]!).items[0].attributes.lone).toBe('\ud800 alone');
  });

  it('checks the query as before (400 naming the field) and leaves other stores on the parsed path', async () => {
    const sqlite = await withSpans(new SqliteLightningStore({ path: join(dir, 'checked.sqlite') }));
    const bad = await sqlite.call('GET', `${A}/spans?rollout_id=${sqlite.rolloutId}&limit=0`);
    expect(bad.status).toBe(400);
    expect(bad.json.detail).toMatch(/limit/);

    const memory = new InMemoryLightningStore();
    const { call, rolloutId } = await withSpans(memory);
    const parsed = vi.spyOn(memory, 'querySpans');
    const page = await call('GET', `${A}/spans?rollout_id=${rolloutId}`);
    expect(parsed).toHaveBeenCalledTimes(1);
    expect(page.json.total).toBe(3);
    const fromSqlite = await sqlite.call('GET', `${A}/spans?rollout_id=${sqlite.rolloutId}`);
    // Same spans, other ids: both stores answer the same shape, field for field.
    const strip = (text: string) => text.replaceAll(/ro-[0-9a-f]+|at-[0-9a-f]+/g, 'ID');
    expect(strip(fromSqlite.raw.body)).toBe(strip(page.raw.body));
  });
});
