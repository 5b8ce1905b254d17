import type { SQLInputValue, SQLOutputValue } from 'node:sqlite';
import type { PageQuery } from '../backend.js';
import type { Clause, ColumnSet } from './query-builder.js';

/**
 * Deep pages without OFFSET. An OFFSET makes SQLite step over every row before the page (~24 ns per row through
 * an index): a page 1,000,000 rows deep costs ~24 ms, and reading 1,000,000 rollouts 100 at a time (an export)
 * spent ~2 minutes in OFFSETs alone. So when a full page of an ascending order ends, the place of its last row in
 * that order (sort value and pk) is kept with the database's change token; a request for the next page of the
 * same query, with the token unchanged, starts from that place through the index instead of stepping over the
 * rows before it. Any write in between (this connection's `total_changes()`, which also counts writes rolled
 * back, or another connection's commit, `data_version`) drops the shortcut: every page is exactly the page the
 * OFFSET gives.
 */

/** One part of "the rows after a row" in an ascending order: its condition and the order its index serves. */
export interface SeekPart {
  where: Clause;
  orderBy: string;
}

/** How to start a page of one ascending order right after a given row. */
export interface SeekOrder {
  /** Extra SELECT columns that give a row's place in the order: `seek_key` and `seek_pk`. */
  columns: string;
  /** The rows after the row at (`key`, `pk`), as parts to read in turn until the page is full. */
  after(key: SQLOutputValue, pk: SQLOutputValue): SeekPart[];
}

const part = (sql: string, params: SQLInputValue[], orderBy: string): SeekPart => ({
  where: { sql, params },
  orderBy,
});

/**
 * The seek of `query`'s order (see `orderBy` in query-builder.ts for the orders themselves), or undefined when
 * its pages are not continued this way: descending orders (their ties run in ascending pk order, so no single
 * index range matches them).
 */
export function seekOrder(columns: ColumnSet, query: PageQuery): SeekOrder | undefined {
  const sortBy = query.sort_by;
  if (sortBy == null) {
    return {
      columns: 'NULL AS seek_key, pk AS seek_pk',
      after: (_key, pk) => [part('pk > ?', [pk as SQLInputValue], ' ORDER BY pk')],
    };
  }
  if (query.sort_order === 'desc') return undefined;
  const kind = columns.sortable[sortBy];
  if (kind === 'time') {
    // Times sort nulls last: first the non-null times after the row, then every null in pk order.
    return {
      columns: `${sortBy} AS seek_key, pk AS seek_pk`,
      after: (key, pk) =>
        key === null
          ? [part(`${sortBy} IS NULL AND pk > ?`, [pk as SQLInputValue], ' ORDER BY pk')]
          : [
              part(
                `(${sortBy} IS NULL) = 0 AND (${sortBy}, pk) > (?, ?)`,
                [key as SQLInputValue, pk as SQLInputValue],
                ` ORDER BY ${sortBy}, pk`,
              ),
              part(`${sortBy} IS NULL`, [], ' ORDER BY pk'),
            ],
    };
  }
  const expression = kind === 'text' ? `coalesce(${sortBy}, '')` : sortBy;
  return {
    columns: `${expression} AS seek_key, pk AS seek_pk`,
    after: (key, pk) => [
      part(
        `(${expression}, pk) > (?, ?)`,
        [key as SQLInputValue, pk as SQLInputValue],
        ` ORDER BY ${expression}, pk`,
      ),
    ],
  };
}

/** Where a full page ended: the next page's offset, the change token it was read under, its last row's place. */
interface PageEnd {
  offset: number;
  token: string;
  key: SQLOutputValue;
  pk: SQLOutputValue;
}

/** The ends of the most recent full pages, by query (SQL and parameters); at most `capacity` of them. */
export class PageEnds {
  private readonly ends = new Map<string, PageEnd>();

  constructor(private readonly capacity = 32) {}

  /**
   * The cache key of a query, or undefined when a parameter is not a string, number or null (a key made of
   * those alone is unambiguous as JSON).
   */
  static keyOf(sql: string, params: readonly SQLInputValue[]): string | undefined {
    for (const param of params) {
      if (param !== null && typeof param !== 'string' && typeof param !== 'number')
        return undefined;
    }
    return JSON.stringify([sql, params]);
  }

  /** Whether a page of `key` ended at `offset` (its token still has to be checked with `take`). */
  has(key: string, offset: number): boolean {
    return this.ends.get(key)?.offset === offset;
  }

  /** The place where the page of `key` before `offset` ended, if it was read under `token`. */
  take(key: string, offset: number, token: string): PageEnd | undefined {
    const end = this.ends.get(key);
    return end !== undefined && end.offset === offset && end.token === token ? end : undefined;
  }

  keep(key: string, end: PageEnd): void {
    this.ends.delete(key);
    if (this.ends.size >= this.capacity) {
      const oldest = this.ends.keys().next().value;
      if (oldest !== undefined) this.ends.delete(oldest);
    }
    this.ends.set(key, end);
  }
}
