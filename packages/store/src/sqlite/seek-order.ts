import type { SQLInputValue, SQLOutputValue } from 'node:sqlite';
import type { PageQuery } from '../backend.js';
import type { Clause, ColumnSet } from './query-builder.js';

/**
 * SQLite's side of deep pages without OFFSET (../page-ends.ts): how a page of an order starts right after a
 * given row. An OFFSET costs SQLite ~24 ns per row stepped over through an index, so a page 1,000,000
 * rows deep ~24 ms; in a descending order ~1 µs (the rows go through the sort of its ties, data and all: a page
 * 190,000 rows deep in start time order took 210 ms, and reading 200,000 rollouts newest first 100 at a time
 * 210 s). The change token is this connection's `total_changes()` (which also counts writes rolled
 * back) and count of rollbacks (a page read in an open commit group sees writes a rollback may undo), with
 * `data_version` (other connections' commits).
 */

/** One part of "the rows after a row" in an order: its condition and the order its index serves. */
export interface SeekPart {
  where: Clause;
  orderBy: string;
}

/** How to start a page of one order right after a given row. */
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

/** `expression` at or before `key` in a descending order whose ties run in pk order: rows after (`key`, `pk`). */
const before = (expression: string, key: SQLOutputValue, pk: SQLOutputValue): Clause => ({
  sql: `${expression} <= ? AND (${expression} < ? OR pk > ?)`,
  params: [key as SQLInputValue, key as SQLInputValue, pk as SQLInputValue],
});

/**
 * The seek of `query`'s order (see `orderBy` in query-builder.ts for the orders themselves). A descending order
 * runs its ties in ascending pk order, which no index range gives in one direction: its part reads the index
 * backwards from the row's key and SQLite sorts each run of equal keys by pk ("temp b-tree for last term"), so a
 * page costs its rows plus the rest of one run of ties. Its ORDER BY names the sort value alone: with the
 * constant `IS NULL` term of a time order in it, SQLite sorts every match instead.
 */
export function seekOrder(columns: ColumnSet, query: PageQuery): SeekOrder {
  const sortBy = query.sort_by;
  if (sortBy == null) {
    return {
      columns: 'NULL AS seek_key, pk AS seek_pk',
      after: (_key, pk) => [part('pk > ?', [pk as SQLInputValue], ' ORDER BY pk')],
    };
  }
  const descending = query.sort_order === 'desc';
  const kind = columns.sortable[sortBy];
  if (kind === 'time') {
    // Times sort nulls last ascending and first descending, nulls among themselves in pk order.
    const nullsAfter = (pk: SQLOutputValue) =>
      part(`${sortBy} IS NULL AND pk > ?`, [pk as SQLInputValue], ' ORDER BY pk');
    const notNull = `(${sortBy} IS NULL) = 0`;
    return {
      columns: `${sortBy} AS seek_key, pk AS seek_pk`,
      after: (key, pk) => {
        if (descending) {
          const latestFirst = ` ORDER BY ${sortBy} DESC, pk`;
          if (key === null) return [nullsAfter(pk), part(notNull, [], latestFirst)];
          const { sql, params } = before(sortBy, key, pk);
          return [part(`${notNull} AND ${sql}`, params, latestFirst)];
        }
        if (key === null) return [nullsAfter(pk)];
        return [
          part(
            `${notNull} AND (${sortBy}, pk) > (?, ?)`,
            [key as SQLInputValue, pk as SQLInputValue],
            ` ORDER BY ${sortBy}, pk`,
          ),
          part(`${sortBy} IS NULL`, [], ' ORDER BY pk'),
        ];
      },
    };
  }
  const expression = kind === 'text' ? `coalesce(${sortBy}, '')` : sortBy;
  return {
    columns: `${expression} AS seek_key, pk AS seek_pk`,
    after: (key, pk) =>
      descending
        ? [{ where: before(expression, key, pk), orderBy: ` ORDER BY ${expression} DESC, pk` }]
        : [
            part(
              `(${expression}, pk) > (?, ?)`,
              [key as SQLInputValue, pk as SQLInputValue],
              ` ORDER BY ${expression}, pk`,
            ),
          ],
  };
}
