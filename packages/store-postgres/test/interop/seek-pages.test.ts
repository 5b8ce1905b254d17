import type { RolloutStatus, SortOrder } from '@arclight/core';
import { createTestDatabase, type TestDatabase } from '@arclight/test-fixtures/postgres';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { PostgresLightningStore } from '../../src/index.js';
import { freshSchema } from './support/schemas.js';

// Pages that follow a full page start where it ended instead of stepping over OFFSET rows, with its total
// (src/seek-order.ts). What must hold: every page and total is exactly what LIMIT/OFFSET and a count give,
// whatever was written between pages, by this store or another process's.

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase('seek_pages');
});
afterAll(async () => {
  await db?.drop();
});
afterEach(() => {
  vi.restoreAllMocks();
});

let now = 0;
const clock = () => now;

/** 60 rollouts whose start times tie, end times tie or are null, modes are null or tie; 3 statuses. */
async function seeded(schema: string): Promise<PostgresLightningStore> {
  const store = await PostgresLightningStore.open({ connectionString: db.url, schema, clock });
  for (let i = 0; i < 60; i++) {
    now = 1000 + ((i * 37) % 11);
    const mode = i % 3 === 0 ? null : i % 2 === 0 ? 'train' : 'val';
    const { rollout_id } = await store.enqueueRollout({ input: { i }, mode });
    if (i % 5 === 0) continue; // stays queuing: a null end time
    now = 2000 + (i % 4);
    await store.updateRollout(rollout_id, { status: i % 4 === 0 ? 'failed' : 'succeeded' });
  }
  return store;
}

/** A statement sent: its SQL text and parameters. */
interface Sent {
  sql: string;
  params: unknown[];
}

/** Every statement sent from here on. */
function statementsSeen(): Sent[] {
  const seen: Sent[] = [];
  const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (
    this: pg.Client,
    ...args: unknown[]
  ) {
    if (typeof args[0] === 'string') {
      seen.push({ sql: args[0], params: Array.isArray(args[1]) ? args[1] : [] });
    }
    return query.apply(this, args);
  } as never);
  return seen;
}

type Filter = { status_in?: RolloutStatus[]; rollout_id_contains?: string };

async function page(
  store: PostgresLightningStore,
  sort_by: string | null,
  sort_order: SortOrder,
  filter: Filter,
  limit = -1,
  offset = 0,
): Promise<{ ids: string[]; total: number }> {
  const { items, total } = await store.queryRollouts({
    sort_by,
    sort_order,
    ...filter,
    limit,
    offset,
  });
  return { ids: items.map((r) => r.rollout_id), total };
}

describe('PostgresLightningStore deep pages', () => {
  it('continues a full page where it ended, with its total, exactly as LIMIT/OFFSET pages', async () => {
    const store = await seeded(freshSchema());
    try {
      const filters: Filter[] = [
        {},
        { status_in: ['succeeded'] },
        { status_in: ['failed', 'queuing'], rollout_id_contains: '1' },
      ];
      for (const sort_by of [null, 'start_time', 'end_time', 'mode', 'rollout_id', 'status']) {
        for (const sort_order of ['asc', 'desc'] as const) {
          for (const filter of filters) {
            const everything = (await page(store, sort_by, sort_order, filter)).ids;
            for (const limit of [4, 7]) {
              const seen = statementsSeen();
              const paged: string[] = [];
              const totals = new Set<number>();
              // Pages read with OFFSET: the first and any after a short page.
              let uncontinued = 0;
              let previous = 0;
              for (let offset = 0; offset < everything.length + limit; offset += limit) {
                const read = await page(store, sort_by, sort_order, filter, limit, offset);
                // A continued read that finds no row cannot show its snapshot: that page is read again.
                const continued = !(offset === 0 || previous < limit);
                if (!continued || read.ids.length === 0) uncontinued += 1;
                paged.push(...read.ids);
                totals.add(read.total);
                previous = read.ids.length;
              }
              vi.restoreAllMocks();
              const where = `${sort_by} ${sort_order} ${JSON.stringify(filter)} limit ${limit}`;
              expect(paged, where).toEqual(everything);
              expect([...totals], where).toEqual([everything.length]);
              const offsets = seen.filter(({ sql }) => /\bOFFSET \$\d+$/.test(sql)).length;
              expect(offsets, where).toBe(uncontinued);
            }
          }
        }
      }
    } finally {
      await store.close();
    }
  });

  it('continues a descending page from the index backwards, sorting only within ties', async () => {
    const schema = freshSchema();
    const store = await seeded(schema);
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      await page(store, 'start_time', 'desc', {}, 4, 0);
      const seen = statementsSeen();
      await page(store, 'start_time', 'desc', {}, 4, 4);
      vi.restoreAllMocks();
      const pages = seen.filter(({ sql }) => sql.startsWith('SELECT doc'));
      expect(pages).toHaveLength(1);
      const [{ sql, params }] = pages as [Sent];
      expect(sql).not.toMatch(/OFFSET/);
      // With sorting priced out, the plan shows what the statement allows: the index read backwards from the
      // last row's key (an index condition, not a filter over every row) and at most a sort within ties.
      await client.query(`SET search_path TO "${schema}"`);
      await client.query('SET enable_sort = off');
      const { rows } = await client.query(`EXPLAIN ${sql}`, params);
      const plan = rows.map((row) => String(row['QUERY PLAN'])).join('\n');
      expect(plan).toContain('Index Scan Backward using rollouts_start_time');
      expect(plan).toContain("Index Cond: (COALESCE(start_time, 'Infinity'::double precision) <= ");
      expect(plan).not.toMatch(/^\s*->\s*Sort\b/m);
    } finally {
      vi.restoreAllMocks();
      await client.end();
      await store.close();
    }
  });

  it('reads the next page with OFFSET again after a write in between, by this store or another', async () => {
    const schema = freshSchema();
    const store = await seeded(schema);
    const other = await PostgresLightningStore.open({ connectionString: db.url, schema, clock });
    try {
      const read = (offset: number) => page(store, 'start_time', 'asc', {}, 5, offset);
      const expected = async (offset: number) => {
        const all = (await page(store, 'start_time', 'asc', {})).ids;
        return { ids: all.slice(offset, offset + 5), total: all.length };
      };
      expect(await read(0)).toEqual(await expected(0));
      // Sorts first: every later row moves one place, so a page continued from the old end would be off by one
      // (and its total one short).
      now = 1;
      await store.enqueueRollout({ input: 'early-1' });
      expect(await read(5)).toEqual(await expected(5));
      now = 0;
      await other.enqueueRollout({ input: 'early-2' });
      expect(await read(10)).toEqual(await expected(10));
      // A rollout of a later page deleted by the other store: the total shrinks, later rows move up.
      const gone = (await read(15)).ids[2] as string;
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      try {
        await client.query(`DELETE FROM "${schema}".rollouts WHERE rollout_id = $1`, [gone]);
      } finally {
        await client.end();
      }
      expect(await read(20)).toEqual(await expected(20));
      expect((await expected(0)).total).toBe(61);
    } finally {
      await other.close();
      await store.close();
    }
  });
});
