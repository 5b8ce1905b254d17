import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync, type SQLInputValue, StatementSync } from 'node:sqlite';
import type { RolloutStatus, SortOrder } from '@arclight/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { rolloutQuery, spanQuery } from '../src/queries.js';
import { SqliteBackend } from '../src/sqlite/index.js';
import { rollout, rolloutIds, span } from './fixtures/records.js';

// Pages that follow a full page start where it ended instead of stepping over OFFSET rows (page-ends.ts). What
// must hold: every page is exactly the page LIMIT/OFFSET gives, whatever was written between pages.

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'arclight-deep-pages-'));
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

/** 60 rollouts whose start times tie, end times tie or are null, and modes are null or tie, in no sorted order. */
function seed(backend: SqliteBackend): void {
  for (let i = 0; i < 60; i++) {
    backend.insertRollout(
      rollout(`r${String((i * 29) % 60).padStart(2, '0')}`, {
        start_time: (i * 37) % 11,
        end_time: i % 5 === 0 ? null : 60 - i,
        mode: i % 3 === 0 ? null : i % 2 === 0 ? 'train' : 'val',
        status: i % 4 === 0 ? 'failed' : i % 4 === 1 ? 'running' : 'succeeded',
      }),
    );
  }
}

/** A statement read with `all()` or `get()`: its SQL and parameters. */
interface Read {
  sql: string;
  params: unknown[];
}

/** Every statement read with `all()` or `get()` from here on. */
function readsSeen(): Read[] {
  const seen: Read[] = [];
  for (const method of ['all', 'get'] as const) {
    const original = StatementSync.prototype[method] as (...params: unknown[]) => unknown;
    vi.spyOn(StatementSync.prototype, method).mockImplementation(function (
      this: StatementSync,
      ...params: unknown[]
    ) {
      seen.push({ sql: this.sourceSQL, params });
      return original.apply(this, params);
    } as never);
  }
  return seen;
}

type Filter = {
  status_in?: RolloutStatus[];
  rollout_id_contains?: string;
  filter_logic?: 'and' | 'or';
};

function query(
  backend: SqliteBackend,
  sort_by: string | null,
  sort_order: SortOrder,
  filter: Filter,
  page?: { limit: number; offset: number },
): { ids: string[]; total: number } {
  const { items, total } = backend.queryRollouts(
    rolloutQuery({ sort_by, sort_order, ...filter, ...page }),
  );
  return { ids: rolloutIds(items), total };
}

const ids = (...args: Parameters<typeof query>): string[] => query(...args).ids;

describe('SqliteBackend deep pages', () => {
  it('continues a full page where it ended and gives exactly the pages LIMIT/OFFSET gives', () => {
    const backend = new SqliteBackend({ path: join(dir, 'pages.db') });
    try {
      seed(backend);
      const filters: Filter[] = [
        {},
        { status_in: ['succeeded'] },
        { status_in: ['failed'], rollout_id_contains: '1' },
        // Several statuses: each read on its own (readRows' arms), duplicates once.
        { status_in: ['succeeded', 'failed'] },
        { status_in: ['running', 'failed', 'running'], rollout_id_contains: '2' },
        { status_in: ['running', 'failed'], rollout_id_contains: '2', filter_logic: 'or' },
      ];
      for (const sort_by of [null, 'start_time', 'end_time', 'mode', 'rollout_id', 'status']) {
        for (const sort_order of ['asc', 'desc'] as const) {
          for (const filter of filters) {
            const everything = ids(backend, sort_by, sort_order, filter);
            for (const limit of [1, 4, 7]) {
              const seen = readsSeen();
              const paged: string[] = [];
              const totals = new Set<number>();
              // Pages that cannot be continued: the first and any after a short page.
              let uncontinued = 0;
              // Of those, the ones that count the matches: full pages and the one past the end.
              let counted = 0;
              let previous = 0;
              for (let offset = 0; offset < everything.length + limit; offset += limit) {
                const page = query(backend, sort_by, sort_order, filter, { limit, offset });
                if (offset === 0 || previous < limit) {
                  uncontinued += 1;
                  if (page.ids.length === limit || (page.ids.length === 0 && offset > 0))
                    counted += 1;
                }
                paged.push(...page.ids);
                totals.add(page.total);
                previous = page.ids.length;
              }
              vi.restoreAllMocks();
              const where = `${sort_by} ${sort_order} ${JSON.stringify(filter)} limit ${limit}`;
              expect(paged, where).toEqual(everything);
              expect([...totals], where).toEqual([everything.length]);
              const offsets = seen.filter(({ sql }) => sql.includes(' OFFSET ?')).length;
              expect(offsets, where).toBe(uncontinued);
              // A continued page takes the total of the page it continues.
              const counts = seen.filter(({ sql }) => sql.startsWith('SELECT count(*)')).length;
              expect(counts, where).toBe(counted);
              // Pages read last to first are never continued: each is read with OFFSET (in two steps once the
              // offset exceeds the limit: the page's pks, then its rows).
              for (let offset = everything.length - 1; offset >= 0; offset -= limit) {
                expect(
                  query(backend, sort_by, sort_order, filter, { limit, offset }),
                  where,
                ).toEqual({
                  ids: everything.slice(offset, offset + limit),
                  total: everything.length,
                });
              }
            }
          }
        }
      }
    } finally {
      backend.close();
    }
  });

  it('continues a descending page by reading the index backwards from its last row, sorting only ties', () => {
    const path = join(dir, 'descending.db');
    const backend = new SqliteBackend({ path });
    const raw = new DatabaseSync(path);
    try {
      seed(backend);
      // The plan of the statement that reads the page after a full one, explained by a second connection.
      const continued = (filter: Filter): string[] => {
        query(backend, 'start_time', 'desc', filter, { limit: 4, offset: 0 });
        const seen = readsSeen();
        query(backend, 'start_time', 'desc', filter, { limit: 4, offset: 4 });
        vi.restoreAllMocks();
        const pages = seen.filter(({ sql }) => sql.startsWith('SELECT data'));
        expect(pages).toHaveLength(1);
        const [{ sql, params }] = pages as [Read];
        expect(sql).not.toMatch(/OFFSET/);
        return raw
          .prepare(`EXPLAIN QUERY PLAN ${sql}`)
          .all(...(params as SQLInputValue[]))
          .map((row) => String(row.detail));
      };
      // Not 'USE TEMP B-TREE FOR ORDER BY': that would sort every match for each page.
      expect(continued({})).toEqual([
        'SEARCH rollouts USING INDEX rollouts_by_start_time (<expr>=? AND start_time<?)',
        'USE TEMP B-TREE FOR LAST TERM OF ORDER BY',
      ]);
      expect(continued({ status_in: ['succeeded'] })).toEqual([
        'SEARCH rollouts USING INDEX rollouts_by_status_start (status=? AND <expr>=? AND start_time<?)',
        'USE TEMP B-TREE FOR LAST TERM OF ORDER BY',
      ]);
    } finally {
      raw.close();
      backend.close();
    }
  });

  it('reads the next page with OFFSET again after a write in between, by this connection or another', () => {
    const path = join(dir, 'writes.db');
    const backend = new SqliteBackend({ path });
    const other = new SqliteBackend({ path });
    try {
      seed(backend);
      const page = (offset: number) =>
        query(backend, 'start_time', 'asc', {}, { limit: 5, offset });
      const expected = (offset: number) => {
        const all = ids(backend, 'start_time', 'asc', {});
        return { ids: all.slice(offset, offset + 5), total: all.length };
      };
      expect(page(0)).toEqual(expected(0));
      // Sorts first: every later row moves one place, so a page continued from the old end would be off by one
      // (and its total one short).
      backend.insertRollout(rollout('early-1', { start_time: -1 }));
      expect(page(5)).toEqual(expected(5));
      other.insertRollout(rollout('early-2', { start_time: -2 }));
      expect(page(10)).toEqual(expected(10));
      // An update that moves a rollout to the end of the order, by the other connection.
      const moved = page(15).ids[0] as string;
      other.putRollout({
        ...(backend.getRollout(moved) as ReturnType<typeof rollout>),
        start_time: 99,
      });
      expect(page(20)).toEqual(expected(20));
      // It now sorts last.
      expect(ids(backend, 'start_time', 'asc', {}).at(-1)).toBe(moved);
    } finally {
      other.close();
      backend.close();
    }
  });

  it('reads the next page with OFFSET again after writes a page saw were rolled back', () => {
    const backend = new SqliteBackend({ path: join(dir, 'rollback.db') });
    try {
      seed(backend);
      const page = (offset: number) =>
        query(backend, 'start_time', 'asc', {}, { limit: 5, offset });
      const before = ids(backend, 'start_time', 'asc', {});
      expect(() =>
        backend.transaction(() => {
          backend.insertRollout(rollout('early', { start_time: -1 }));
          expect(page(0).ids[0]).toBe('early');
          expect(page(5).total).toBe(61);
          throw new Error('undone');
        }),
      ).toThrow('undone');
      // The pages above were continued from data that is gone: this one must not be.
      expect(page(10)).toEqual({ ids: before.slice(10, 15), total: 60 });
    } finally {
      backend.close();
    }
  });

  it('pages spans by sequence id the same way', () => {
    const backend = new SqliteBackend({ path: join(dir, 'spans.db') });
    try {
      backend.insertRollout(rollout('r1'));
      const spans = Array.from({ length: 23 }, (_, i) =>
        span('r1', 'a1', `s${String(i).padStart(2, '0')}`, { sequence_id: (i * 7) % 23 }),
      );
      backend.insertSpans(spans);
      const all = backend.querySpans(spanQuery('r1', { sort_by: 'sequence_id' })).items;
      const seen = readsSeen();
      const paged = [];
      for (let offset = 0; offset < 30; offset += 5) {
        const query = spanQuery('r1', { sort_by: 'sequence_id', limit: 5, offset });
        paged.push(...backend.querySpans(query).items);
      }
      vi.restoreAllMocks();
      expect(paged.map((s) => s.sequence_id)).toEqual(all.map((s) => s.sequence_id));
      expect(paged.map((s) => s.sequence_id)).toEqual(Array.from({ length: 23 }, (_, i) => i));
      // The first page, and the one past the end after the short page at 20.
      expect(seen.filter(({ sql }) => sql.includes(' OFFSET ?'))).toHaveLength(2);
    } finally {
      backend.close();
    }
  });
});
