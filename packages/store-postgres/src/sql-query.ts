import { type FilterLogic, type SortOrder, ValidationError } from '@arclight/core';

/**
 * How a column sorts, as in the other backends (upstream's in-memory collection): `time` sorts a null as
 * +infinity, `text` a null as '', `number` a null as 0. Ties keep insertion order (`ord`), also descending.
 */
export type SortKind = 'number' | 'text' | 'time';

/** The columns of one table that WHERE and ORDER BY may name; nothing else is ever spliced into SQL. */
export interface Columns {
  table: string;
  sortable: Readonly<Record<string, SortKind>>;
}

/** Builds WHERE clauses with numbered parameters ($1, $2, …) appended to `params`. */
export class Conditions {
  private readonly must: string[] = [];
  private readonly optional: string[] = [];

  constructor(readonly params: unknown[] = []) {}

  private bind(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }

  /** Always applied (ANDed with the rest). */
  require(column: string, value: unknown): this {
    this.must.push(`${column} = ${this.bind(value)}`);
    return this;
  }

  equals(column: string, value: string | null | undefined): this {
    if (value != null) this.optional.push(`${column} = ${this.bind(value)}`);
    return this;
  }

  /** Membership; an empty list matches nothing; ignored when null. */
  within(column: string, values: readonly string[] | null | undefined): this {
    if (values == null) return this;
    this.optional.push(values.length === 0 ? 'false' : `${column} = ANY(${this.bind(values)})`);
    return this;
  }

  /** Case-sensitive substring; a null column never matches. */
  contains(column: string, needle: string | null | undefined): this {
    if (needle != null)
      this.optional.push(`coalesce(strpos(${column}, ${this.bind(needle)}), 0) > 0`);
    return this;
  }

  where(logic: FilterLogic = 'and'): string {
    const parts = [...this.must];
    if (this.optional.length === 1) parts.push(this.optional[0]!);
    else if (this.optional.length > 1)
      parts.push(`(${this.optional.map((c) => `(${c})`).join(logic === 'or' ? ' OR ' : ' AND ')})`);
    return parts.length === 0 ? '' : ` WHERE ${parts.join(' AND ')}`;
  }
}

export function orderBy(columns: Columns, sortBy: string | null, order: SortOrder): string {
  if (sortBy == null) return ' ORDER BY ord';
  return ` ORDER BY ${sortKey(columns, sortBy)} ${order === 'desc' ? 'DESC' : 'ASC'}, ord`;
}

/** The expression `sortBy` sorts by (nulls as its kind sorts them); a column that is not sortable is refused. */
export function sortKey(columns: Columns, sortBy: string): string {
  const kind = Object.hasOwn(columns.sortable, sortBy) ? columns.sortable[sortBy] : undefined;
  if (kind === undefined)
    throw new ValidationError(
      `sort_by: ${columns.table} cannot be sorted by ${JSON.stringify(sortBy)}`,
    );
  return kind === 'time'
    ? `coalesce(${sortBy}, 'Infinity'::float8)`
    : kind === 'number'
      ? `coalesce(${sortBy}, 0)`
      : `coalesce(${sortBy}, '')`;
}

const time = 'time' as const;
const text = 'text' as const;
const number = 'number' as const;

export const ROLLOUTS: Columns = {
  table: 'rollouts',
  sortable: {
    rollout_id: text,
    start_time: time,
    end_time: time,
    mode: text,
    resources_id: text,
    status: text,
  },
};
export const ATTEMPTS: Columns = {
  table: 'attempts',
  sortable: {
    rollout_id: text,
    attempt_id: text,
    sequence_id: number,
    start_time: time,
    end_time: time,
    status: text,
    worker_id: text,
    last_heartbeat_time: time,
  },
};
export const SPANS: Columns = {
  table: 'spans',
  sortable: {
    rollout_id: text,
    attempt_id: text,
    sequence_id: number,
    trace_id: text,
    span_id: text,
    parent_id: text,
    name: text,
    start_time: time,
    end_time: time,
  },
};
export const RESOURCES: Columns = {
  table: 'resources',
  sortable: { resources_id: text, create_time: time, update_time: time, version: number },
};
export const WORKERS: Columns = {
  table: 'workers',
  sortable: {
    worker_id: text,
    status: text,
    last_heartbeat_time: time,
    last_dequeue_time: time,
    last_busy_time: time,
    last_idle_time: time,
    current_rollout_id: text,
    current_attempt_id: text,
  },
};
