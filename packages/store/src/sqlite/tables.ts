import type { SQLInputValue } from 'node:sqlite';
import type { Attempt, ResourcesUpdate, Rollout, Span, Worker } from '@arclight/core';
import { SORTABLE_FIELDS } from '../backend.js';
import type { ColumnSet, SortKind } from './query-builder.js';

/**
 * How one record type maps onto its table: the unique key, the scalar columns copied out of the record
 * (in `values` order) and the SQL to insert and to upsert it. `data` (the JSON) is always bound last.
 */
export interface Table<T> extends ColumnSet {
  key: readonly string[];
  columns: readonly string[];
  values(record: T): SQLInputValue[];
  insertSql: string;
  /** `INSERT … VALUES (…), (…), …` for `rows` records (bind `values(record)` + JSON per record), then `suffix`. */
  insertSqlForRows(rows: number, suffix?: string): string;
  upsertSql: string;
  /**
   * `UPDATE … WHERE <key>`, bound with `updateParams`. A table with `stable` columns also requires them unchanged
   * (`WHERE <key> AND <stable> = ?`) and leaves them, and the indexes over them, alone; when that matches no row,
   * `updateAny` sets them too.
   */
  updateSql: string;
  updateParams(record: T, json: string): SQLInputValue[];
  updateAny: { sql: string; params(record: T, json: string): SQLInputValue[] } | undefined;
}

function table<T>(spec: {
  table: string;
  key: readonly string[];
  columns: readonly string[];
  sortable: readonly string[];
  values(record: T): SQLInputValue[];
  /** Extra columns filled by an SQL expression (a constant of this module, never user input). */
  computed?: Readonly<Record<string, string>>;
  /**
   * Indexed columns that updates almost never change. SQLite rewrites an index entry whenever the UPDATE sets
   * one of its columns, even to the same value: leaving these out of the common UPDATE spares a page write.
   */
  stable?: readonly string[];
}): Table<T> {
  const computed = Object.entries(spec.computed ?? {});
  const names = [...spec.columns, ...computed.map(([name]) => name), 'data'];
  const placeholders = [
    ...spec.columns.map(() => '?'),
    ...computed.map(([, expr]) => `(${expr})`),
    '?',
  ];
  const tuple = `(${placeholders.join(', ')})`;
  const insertSqlForRows = (rows: number, suffix = ''): string =>
    `INSERT INTO ${spec.table} (${names.join(', ')}) VALUES ${Array(rows).fill(tuple).join(', ')}${suffix}`;
  const insertSql = insertSqlForRows(1);
  const updates = names.filter((n) => !spec.key.includes(n)).map((n) => `${n} = excluded.${n}`);
  const upsertSql = `${insertSql} ON CONFLICT (${spec.key.join(', ')}) DO UPDATE SET ${updates.join(', ')}`;
  // The UPDATEs bind, in order: the changing columns, data, then the key and the stable columns (in the WHERE
  // of `updateSql`, in the SET and WHERE of `updateAny`). Anonymous `?` only: Node 22.13's node:sqlite cannot
  // bind arguments to numbered `?NNN` parameters.
  const stable = spec.stable ?? [];
  const keyIndexes = spec.key.map((k) => spec.columns.indexOf(k));
  const stableIndexes = stable.map((c) => spec.columns.indexOf(c));
  const otherIndexes = spec.columns
    .map((_, i) => i)
    .filter((i) => !keyIndexes.includes(i) && !stableIndexes.includes(i));
  const assign = (i: number) => `${spec.columns[i]} = ?`;
  const assignments = [
    ...otherIndexes.map(assign),
    ...computed.map(([c, e]) => `${c} = (${e})`),
    'data = ?',
  ];
  const keyMatch = keyIndexes.map(assign);
  const stableMatch = stableIndexes.map(assign);
  const updateSql = `UPDATE ${spec.table} SET ${assignments.join(', ')} WHERE ${[...keyMatch, ...stableMatch].join(' AND ')}`;
  const bind =
    (...groups: number[][]) =>
    (record: T, json: string): SQLInputValue[] => {
      const values = spec.values(record);
      const pick = (indexes: number[]) => indexes.map((i) => values[i] ?? null);
      return [...pick(otherIndexes), json, ...groups.flatMap(pick)];
    };
  const updateParams = bind(keyIndexes, stableIndexes);
  const updateAny =
    stable.length === 0
      ? undefined
      : {
          sql: `UPDATE ${spec.table} SET ${[...assignments, ...stableMatch].join(', ')} WHERE ${keyMatch.join(' AND ')}`,
          params: bind(stableIndexes, keyIndexes),
        };
  const sortable: Record<string, SortKind> = {};
  for (const field of spec.sortable) {
    if (!spec.columns.includes(field))
      throw new Error(`${spec.table}: sortable field ${field} has no column`);
    sortable[field] = field.endsWith('_time')
      ? 'time'
      : NULLABLE_TEXT.has(field)
        ? 'text'
        : 'plain';
  }
  return {
    ...spec,
    filterable: new Set(spec.columns),
    sortable,
    insertSql,
    insertSqlForRows,
    upsertSql,
    updateSql,
    updateParams,
    updateAny,
  };
}

/** Optional string fields: a null sorts as ''. */
const NULLABLE_TEXT = new Set([
  'mode',
  'resources_id',
  'worker_id',
  'parent_id',
  'current_rollout_id',
  'current_attempt_id',
]);

const n = <V>(value: V | null | undefined): V | null => value ?? null;

export const ROLLOUTS = table<Rollout>({
  table: 'rollouts',
  key: ['rollout_id'],
  columns: ['rollout_id', 'status', 'start_time', 'end_time', 'mode', 'resources_id'],
  sortable: SORTABLE_FIELDS.rollouts,
  values: (r) => [
    r.rollout_id,
    r.status,
    n(r.start_time),
    n(r.end_time),
    n(r.mode),
    n(r.resources_id),
  ],
  stable: ['start_time'],
});

export const ATTEMPTS = table<Attempt>({
  table: 'attempts',
  key: ['rollout_id', 'attempt_id'],
  columns: [
    'rollout_id',
    'attempt_id',
    'sequence_id',
    'status',
    'start_time',
    'end_time',
    'worker_id',
    'last_heartbeat_time',
  ],
  // An attempt's sequence id is fixed when it is created (attempts_by_sequence).
  stable: ['sequence_id'],
  sortable: SORTABLE_FIELDS.attempts,
  values: (a) => [
    a.rollout_id,
    a.attempt_id,
    a.sequence_id,
    a.status,
    n(a.start_time),
    n(a.end_time),
    n(a.worker_id),
    n(a.last_heartbeat_time),
  ],
});

export const SPANS = table<Span>({
  table: 'spans',
  key: ['rollout_id', 'attempt_id', 'span_id'],
  columns: [
    'rollout_id',
    'attempt_id',
    'span_id',
    'sequence_id',
    'trace_id',
    'parent_id',
    'name',
    'start_time',
    'end_time',
  ],
  sortable: SORTABLE_FIELDS.spans,
  values: (s) => [
    s.rollout_id,
    s.attempt_id,
    s.span_id,
    s.sequence_id,
    s.trace_id,
    n(s.parent_id),
    s.name,
    n(s.start_time),
    n(s.end_time),
  ],
});

export const RESOURCES = table<ResourcesUpdate>({
  table: 'resources',
  key: ['resources_id'],
  columns: ['resources_id', 'create_time', 'update_time', 'version'],
  sortable: SORTABLE_FIELDS.resources,
  values: (r) => [r.resources_id, n(r.create_time), n(r.update_time), n(r.version)],
  // Every write gets a fresh, larger write_seq: ties on update_time go to the update written last.
  computed: { write_seq: 'SELECT coalesce(max(write_seq), 0) + 1 FROM resources' },
});

export const WORKERS = table<Worker>({
  table: 'workers',
  key: ['worker_id'],
  columns: [
    'worker_id',
    'status',
    'last_heartbeat_time',
    'last_dequeue_time',
    'last_busy_time',
    'last_idle_time',
    'current_rollout_id',
    'current_attempt_id',
  ],
  sortable: SORTABLE_FIELDS.workers,
  values: (w) => [
    w.worker_id,
    w.status,
    n(w.last_heartbeat_time),
    n(w.last_dequeue_time),
    n(w.last_busy_time),
    n(w.last_idle_time),
    n(w.current_rollout_id),
    n(w.current_attempt_id),
  ],
});
