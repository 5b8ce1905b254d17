import type { SQLInputValue, SQLOutputValue } from 'node:sqlite';
import type { PageQuery } from '../backend.js';
import type { Clause, ColumnSet } from './query-builder.js';

/**
 * SQLite's side of deep pages without OFFSET (../page-ends.ts): how a page of an ascending order starts right
 * after a given row. An OFFSET costs SQLite ~24 ns per row stepped over through an index, so a page 1,000,000
 * rows deep ~24 ms. The change token is this connection's `total_changes()` (which also counts writes rolled
 * back) and count of rollbacks (a page read in an open commit group sees writes a rollback may undo), with
 * `data_version` (other connections' commits).
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
