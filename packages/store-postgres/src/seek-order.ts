import type { PageEnd, PageQuery } from '@arclight/store';
import { type Columns, sortKey } from './sql-query.js';

/**
 * PostgreSQL's side of deep pages without OFFSET (@arclight/store's page-ends.ts): how a page of an order starts
 * right after a given row. The change token is the snapshot the page was read in
 * (`pg_current_snapshot()`): two snapshots with the same text see the same committed data, since any transaction
 * that commits in between either leaves the list of those in progress or moves the first unassigned id.
 */
export interface SeekOrder {
  /** Extra SELECT columns that give a row's place in the order: `seek_key` and `seek_pk`. */
  columns: string;
  /** The condition "after the row where `end` was", its values appended to `params` as numbered parameters. */
  after(end: PageEnd, params: unknown[]): string;
}

const bind = (params: unknown[], value: unknown): string => `$${params.push(value)}`;

/**
 * The seek of `query`'s order (see `orderBy` in sql-query.ts). A descending order runs its ties in ascending
 * `ord`: its condition bounds the key from above (an index range read backwards) and PostgreSQL sorts each run
 * of equal keys by `ord` (incremental sort), so a page costs its rows plus the rest of one run of ties.
 */
export function seekOrder(columns: Columns, query: PageQuery): SeekOrder {
  if (query.sort_by == null) {
    return {
      columns: 'NULL AS seek_key, ord AS seek_pk',
      after: (end, params) => `ord > ${bind(params, end.pk)}`,
    };
  }
  const key = sortKey(columns, query.sort_by);
  if (query.sort_order === 'desc') {
    return {
      columns: `${key} AS seek_key, ord AS seek_pk`,
      after: (end, params) => {
        const at = bind(params, end.key);
        return `${key} <= ${at} AND (${key} < ${at} OR ord > ${bind(params, end.pk)})`;
      },
    };
  }
  return {
    columns: `${key} AS seek_key, ord AS seek_pk`,
    after: (end, params) => `(${key}, ord) > (${bind(params, end.key)}, ${bind(params, end.pk)})`,
  };
}
