import type { SQLInputValue } from 'node:sqlite';
import type { FilterLogic, SortOrder } from '@arclight/core';
import { ValidationError } from '@arclight/core';

/**
 * How a column sorts, mirroring upstream's in-memory collection: `time` columns sort a null as +infinity
 * (last ascending, first descending), `text` columns sort a null as '' and `plain` columns are never null.
 */
export type SortKind = 'plain' | 'text' | 'time';

/** The columns of one table that WHERE and ORDER BY may name; nothing else is ever interpolated into SQL. */
export interface ColumnSet {
  table: string;
  filterable: ReadonlySet<string>;
  sortable: Readonly<Record<string, SortKind>>;
}

/** A boolean SQL expression over whitelisted columns, with its bound values. */
export interface Clause {
  sql: string;
  params: SQLInputValue[];
}

const MATCH_NOTHING: Clause = { sql: '0', params: [] };

/** The ` WHERE …` clause `where` (possibly empty) ANDed with the condition `extra`, if any. */
export function andWhere(where: Clause, extra: Clause | undefined): Clause {
  if (extra === undefined) return where;
  const sql =
    where.sql === ''
      ? ` WHERE ${extra.sql}`
      : ` WHERE (${where.sql.slice(' WHERE '.length)}) AND (${extra.sql})`;
  return { sql, params: [...where.params, ...extra.params] };
}

/** Builds the conditions of one query against `columns`. Every value is bound, never spliced in. */
export class Conditions {
  private readonly must: Clause[] = [];
  private readonly optional: Clause[] = [];

  constructor(private readonly columns: ColumnSet) {}

  /** An always-applied equality (ANDed with everything else). */
  require(column: string, value: SQLInputValue): this {
    this.must.push({ sql: `${this.column(column)} = ?`, params: [value] });
    return this;
  }

  /** `column = value`, ignored when value is null/undefined. */
  equals(column: string, value: string | null | undefined): this {
    if (value != null) this.optional.push({ sql: `${this.column(column)} = ?`, params: [value] });
    return this;
  }

  /**
   * Membership; an empty list matches nothing; ignored when the list is null/undefined. One value is an equality:
   * SQLite cannot tell that a `json_each` list holds one value, so only `= ?` lets an index on (column, sort key)
   * serve a page's order (a page of one status in start-time order reads its rows from the index instead of
   * sorting every rollout of that status).
   */
  within(column: string, values: readonly string[] | null | undefined): this {
    if (values == null) return this;
    const name = this.column(column);
    this.optional.push(
      values.length === 0
        ? MATCH_NOTHING
        : values.length === 1
          ? { sql: `${name} = ?`, params: [values[0]!] }
          : {
              sql: `${name} IN (SELECT value FROM json_each(?))`,
              params: [JSON.stringify(values)],
            },
    );
    return this;
  }

  /** Case-sensitive substring (a null column never matches); ignored when needle is null/undefined. */
  contains(column: string, needle: string | null | undefined): this {
    if (needle != null) {
      this.optional.push({
        sql: `coalesce(instr(${this.column(column)}, ?), 0) > 0`,
        params: [needle],
      });
    }
    return this;
  }

  /** ` WHERE …` (or '') combining the optional conditions with `logic` and ANDing the required ones. */
  where(logic: FilterLogic = 'and'): Clause {
    const parts = [...this.must];
    if (this.optional.length === 1) parts.push(this.optional[0]!);
    else if (this.optional.length > 1) {
      const joiner = logic === 'or' ? ' OR ' : ' AND ';
      parts.push({
        sql: `(${this.optional.map((c) => `(${c.sql})`).join(joiner)})`,
        params: this.optional.flatMap((c) => c.params),
      });
    }
    if (parts.length === 0) return { sql: '', params: [] };
    return {
      sql: ` WHERE ${parts.map((c) => c.sql).join(' AND ')}`,
      params: parts.flatMap((c) => c.params),
    };
  }

  private column(name: string): string {
    if (!this.columns.filterable.has(name)) {
      throw new ValidationError(
        `${this.columns.table}: cannot filter by unknown field ${JSON.stringify(name)}`,
      );
    }
    return name;
  }
}

/**
 * ` ORDER BY …` for a page: by `sortBy` with ties in insertion order (also when descending), or insertion
 * order when `sortBy` is null.
 */
export function orderBy(columns: ColumnSet, sortBy: string | null, order: SortOrder): string {
  if (sortBy == null) return ' ORDER BY pk';
  const kind = Object.hasOwn(columns.sortable, sortBy) ? columns.sortable[sortBy] : undefined;
  if (kind === undefined) {
    throw new ValidationError(
      `sort_by: ${columns.table} cannot be sorted by ${JSON.stringify(sortBy)}`,
    );
  }
  const dir = order === 'desc' ? 'DESC' : 'ASC';
  switch (kind) {
    case 'time':
      return ` ORDER BY (${sortBy} IS NULL) ${dir}, ${sortBy} ${dir}, pk`;
    case 'text':
      return ` ORDER BY coalesce(${sortBy}, '') ${dir}, pk`;
    default:
      return ` ORDER BY ${sortBy} ${dir}, pk`;
  }
}

/** The columns `orderBy(…, sortBy, …)` reads (`sortBy` as `orderBy` accepted it). */
export const orderColumns = (sortBy: string | null): string =>
  sortBy == null ? 'pk' : `pk, ${sortBy}`;
