import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LightningStoreClient } from '@arclight/client';
import { type Span, type Triplet, ValidationError } from '@arclight/core';
import { createLightningStoreServer } from '@arclight/server';
import { InMemoryLightningStore, type LightningStore, SqliteLightningStore } from '@arclight/store';
import { afterEach, describe, expect, it } from 'vitest';
import {
  EmptyExportError,
  type ExportProgress,
  exportFromStore,
  parseSince,
  type TripletLine,
  type VerlRow,
  writeExport,
} from '../src/index.js';
import { type FixtureRollout, recordOf, spansOf } from './support/fixtures.js';
import { populate } from './support/populate.js';
import { exportJsonl, tempDir } from './support/run.js';
import { SCENARIO } from './support/scenario.js';

const stores: LightningStore[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});

async function scenarioStore(extra: FixtureRollout[] = []): Promise<LightningStore> {
  const store = new InMemoryLightningStore();
  stores.push(store);
  await populate(store, [...SCENARIO, ...extra]);
  return store;
}

const readJsonl = <T>(path: string): T[] =>
  readFileSync(path, 'utf8')
    .trimEnd()
    .split('\n')
    .filter((l) => l)
    .map((l) => JSON.parse(l) as T);

describe('exportFromStore', () => {
  it('pages through rollouts and spans and writes what writeExport writes for the same records', async () => {
    const store = await scenarioStore();
    const out = join(tempDir(), 'verl.jsonl');
    const summary = await exportFromStore(store, {
      format: 'verl-trajectory-jsonl',
      out,
      pageSize: 2,
      spanPageSize: 3,
    });
    const expected = await exportJsonl<VerlRow>(SCENARIO.map(recordOf), {
      format: 'verl-trajectory-jsonl',
    });
    const rows = readJsonl<VerlRow>(out);
    const strip = (r: VerlRow) => ({ ...r, rollout_id: '', attempt_id: '' });
    expect(rows.map(strip)).toEqual(expected.rows.map(strip));
    const anonymous = (s: typeof summary) => ({
      ...s,
      merge: s.merge && {
        ...s.merge,
        first_breaks: s.merge.first_breaks.map((b) => ({ ...b, rollout_id: '' })),
      },
    });
    expect(anonymous(summary)).toMatchObject({ ...anonymous(expected.summary), out });
  });

  it('task-grouped formats read task by task (two passes) and pair within the task', async () => {
    const store = await scenarioStore();
    const out = join(tempDir(), 'dpo.jsonl');
    const summary = await exportFromStore(store, { format: 'trl-dpo', out, pageSize: 2 });
    expect(summary).toMatchObject({ rows: 2, task_groups: 2, rollouts: 7 });
    const art = await exportFromStore(store, { format: 'art', out: join(tempDir(), 'art.jsonl') });
    expect(art.task_groups).toBe(3);
  });

  it('filters by status (unfinished counted apart), mode and since', async () => {
    const running: FixtureRollout = {
      rollout_id: 'ro-running',
      input: { question: 'q9' },
      calls: SCENARIO[0]!.calls,
      status: 'running',
    };
    const failed: FixtureRollout = {
      ...running,
      rollout_id: 'ro-failed',
      status: 'failed',
      reward: 0,
    };
    const store = await scenarioStore([running, failed]);
    const dir = tempDir();

    const all = await exportFromStore(store, { format: 'triplets', out: join(dir, 'a.jsonl') });
    expect(all.rollouts).toBe(9);
    expect(all.skipped_rollouts).toEqual({ unfinished: 1, no_llm_calls: 1 });

    const succeeded = await exportFromStore(store, {
      format: 'triplets',
      out: join(dir, 'b.jsonl'),
      rolloutStatus: ['succeeded'],
    });
    expect(succeeded.skipped_rollouts).toEqual({ unfinished: 1, status: 1, no_llm_calls: 1 });

    const val = await exportFromStore(store, {
      format: 'triplets',
      out: join(dir, 'c.jsonl'),
      mode: 'val',
      allowEmpty: true,
    });
    expect(val.skipped_rollouts).toMatchObject({ mode: 7, no_llm_calls: 1 });

    const future = await exportFromStore(store, {
      format: 'triplets',
      out: join(dir, 'd.jsonl'),
      allowEmpty: true,
      since: new Date(Date.now() + 3_600_000).toISOString(),
    });
    expect(future.skipped_rollouts.since).toBe(8);
    expect(future.rows).toBe(0);
  });

  it('reports progress for every rollout read', async () => {
    const store = await scenarioStore();
    const seen: ExportProgress[] = [];
    await exportFromStore(store, {
      format: 'triplets',
      out: join(tempDir(), 'p.jsonl'),
      pageSize: 3,
      onProgress: (p) => seen.push(p),
    });
    expect(seen.map((p) => p.rollouts_done)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(seen.at(-1)).toEqual({ rollouts_done: 7, rollouts_total: 7, rows: 12 });
  });

  it('passes adapter options (agentMatch, llmCallMatch) or uses a given adapter', async () => {
    const store = await scenarioStore();
    const dir = tempDir();
    const writers = await exportFromStore(store, {
      format: 'triplets',
      out: join(dir, 'w.jsonl'),
      adapter: { agentMatch: '^writer$' },
    });
    expect(writers.rows).toBe(2);
    const none = await exportFromStore(store, {
      format: 'triplets',
      out: join(dir, 'n.jsonl'),
      adapter: { llmCallMatch: 'anthropic' },
    }).catch((error: unknown) => error);
    expect(none).toBeInstanceOf(EmptyExportError);
    expect((none as EmptyExportError).summary.skipped_rollouts).toEqual({ no_llm_calls: 7 });
    expect((none as EmptyExportError).message).toMatch(
      /7 rollout\(s\) skipped, no_llm_calls: .*--llm-call-match/,
    );

    const custom = {
      adapt: (spans: readonly Span[]): Triplet[] => [
        {
          prompt: { token_ids: [1] },
          response: { token_ids: [2] },
          reward: spans.length,
          metadata: {},
        },
      ],
    };
    const out = join(dir, 'c.jsonl');
    await exportFromStore(store, { format: 'triplets', out, adapter: custom });
    expect(readJsonl<TripletLine>(out).map((r) => r.reward)).toHaveLength(7);
  });

  it('counts rollouts whose spans the adapter rejects, with a warning', async () => {
    const store = await scenarioStore();
    const bad = await store.startRollout({ input: 'bad' });
    const [, , llm] = spansOf({
      rollout_id: bad.rollout_id,
      attempt_id: bad.attempt.attempt_id,
      input: 'bad',
      calls: SCENARIO[0]!.calls,
    });
    await store.addManySpans([{ ...llm!, attributes: { 'logprobs.content': 'not json' } }]);
    await store.updateAttempt(bad.rollout_id, bad.attempt.attempt_id, { status: 'succeeded' });
    const empty = await store.startRollout({ input: 'no spans' });
    await store.updateAttempt(empty.rollout_id, empty.attempt.attempt_id, { status: 'failed' });
    const summary = await exportFromStore(store, {
      format: 'triplets',
      out: join(tempDir(), 'x.jsonl'),
    });
    expect(summary.skipped_rollouts).toMatchObject({ adapter_error: 1, no_spans: 1 });
    expect(summary.warnings[0]).toMatch(
      new RegExp(`rollout ${bad.rollout_id}: the adapter rejected`),
    );
  });

  it('stops when its signal aborts, deleting the partial output', async () => {
    const store = await scenarioStore();
    const dir = tempDir();
    const controller = new AbortController();
    const run = exportFromStore(store, {
      format: 'verl-parquet',
      out: join(dir, 'v.parquet'),
      pageSize: 2,
      signal: controller.signal,
      onProgress: (p) => {
        if (p.rollouts_done === 3) controller.abort(new Error('stop here'));
      },
    });
    await expect(run).rejects.toThrow('stop here');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('reads spans ahead through a server and writes them in order, at most readAhead + 1 reads at a time', async () => {
    const store = await scenarioStore();
    const server = createLightningStoreServer(store, { host: '127.0.0.1', port: 0 });
    const client = new LightningStoreClient(await server.listen());
    try {
      let inFlight = 0;
      let most = 0;
      // The client with its span reads counted (every other call goes to the client as it is).
      const counted = new Proxy(client, {
        get(target, key) {
          if (key === 'querySpans') {
            return async (...args: Parameters<LightningStore['querySpans']>) => {
              most = Math.max(most, ++inFlight);
              try {
                return await target.querySpans(...args);
              } finally {
                inFlight--;
              }
            };
          }
          const value: unknown = Reflect.get(target, key, target);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
      const dir = tempDir();
      const local = join(dir, 'local.jsonl');
      await exportFromStore(store, { format: 'triplets', out: local });
      for (const readAhead of [0, 4]) {
        most = 0;
        const out = join(dir, `remote-${readAhead}.jsonl`);
        const summary = await exportFromStore(counted, {
          format: 'triplets',
          out,
          pageSize: 3,
          readAhead,
        });
        expect(summary).toMatchObject({ rows: 12, rollouts: 7 });
        expect(readFileSync(out, 'utf8')).toBe(readFileSync(local, 'utf8'));
        // Pages of 3 rollouts: the reads of a page are started together, up to readAhead + 1 of them.
        expect(most).toBe(readAhead === 0 ? 1 : 3);
      }
      most = 0;
      await exportFromStore(counted, {
        format: 'triplets',
        out: join(dir, 'wide.jsonl'),
        readAhead: 4,
      });
      expect(most).toBe(5);
    } finally {
      await server.close();
    }
  });

  it('fails on a span read that fails, after the rollouts before it, deleting the partial output', async () => {
    const store = await scenarioStore();
    const { items } = await store.queryRollouts({ sort_by: 'start_time' });
    const failing = new Set(items.slice(2, 4).map((r) => r.rollout_id));
    // The 3rd and 4th rollouts' reads fail; the 4th's is read ahead and must not go unhandled.
    const broken = new Proxy(store, {
      get(target, key) {
        if (key === 'querySpans') {
          return async (rolloutId: string, ...rest: unknown[]) => {
            if (failing.has(rolloutId)) throw new Error(`spans of ${rolloutId} unavailable`);
            return target.querySpans(rolloutId, ...(rest as [undefined]));
          };
        }
        const value: unknown = Reflect.get(target, key, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const dir = tempDir();
    const seen: number[] = [];
    const run = exportFromStore(broken, {
      format: 'triplets',
      out: join(dir, 't.jsonl'),
      onProgress: (p) => seen.push(p.rollouts_done),
    });
    await expect(run).rejects.toThrow(`spans of ${items[2]!.rollout_id} unavailable`);
    expect(seen).toEqual([1, 2]);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('rejects a readAhead that is not a non-negative integer', async () => {
    const store = await scenarioStore();
    for (const readAhead of [-1, 1.5]) {
      const run = exportFromStore(store, {
        format: 'triplets',
        out: join(tempDir(), 'r.jsonl'),
        readAhead,
      });
      await expect(run).rejects.toThrow(ValidationError);
      await expect(run).rejects.toThrow(
        `readAhead: expected a non-negative integer, got ${readAhead}`,
      );
    }
  });

  it('reads a SQLite store file', async () => {
    const dir = tempDir();
    const store = new SqliteLightningStore({ path: join(dir, 'arclight.sqlite') });
    stores.push(store);
    await populate(store, SCENARIO);
    const out = join(dir, 'verl.parquet');
    const summary = await exportFromStore(store, { format: 'verl-parquet', out });
    expect(summary).toMatchObject({ rows: 10, rollouts: 7 });
    expect(readFileSync(out).subarray(0, 4).toString()).toBe('PAR1');
  });

  it('writeExport and exportFromStore agree on the summary of the scenario', async () => {
    const store = await scenarioStore();
    const a = await exportFromStore(store, { format: 'trl-kto', out: join(tempDir(), 'a.jsonl') });
    const b = await writeExport(SCENARIO.map(recordOf), {
      format: 'trl-kto',
      out: join(tempDir(), 'b.jsonl'),
    });
    expect({ ...a, out: '' }).toEqual({ ...b, out: '' });
  });
});

describe('parseSince', () => {
  it('reads ISO dates and epoch seconds, milliseconds or nanoseconds', () => {
    expect(parseSince('2025-01-01T00:00:00Z')).toBe(1735689600);
    expect(parseSince(1735689600)).toBe(1735689600);
    expect(parseSince('1735689600000')).toBe(1735689600);
    expect(parseSince(1735689600e9)).toBe(1735689600);
    expect(() => parseSince('yesterday')).toThrow(/since: expected an ISO-8601 date/);
  });
});
