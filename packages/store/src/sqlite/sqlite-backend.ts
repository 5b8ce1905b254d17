import type { SQLInputValue, SQLOutputValue } from 'node:sqlite';
import type {
  Attempt,
  ResourcesUpdate,
  Rollout,
  RolloutStatus,
  Span,
  Worker,
} from '@arclight/core';
import { NotFoundError, StoreError, ValidationError } from '@arclight/core';
import type {
  BackendCounts,
  Page,
  PageQuery,
  ResourcesQuery,
  RolloutQuery,
  SpanQuery,
  StoreBackend,
  WorkerQuery,
} from '../backend.js';
import { type PageEnd, PageEnds } from '../page-ends.js';
import { addSpanFilters } from '../queries.js';
import { SqliteConnection, type SqliteConnectionOptions } from './connection.js';
import { migrate, readableWithoutMigrating, SCHEMA_VERSION, userVersion } from './migrations.js';
import { andWhere, type Clause, Conditions, orderBy, orderColumns } from './query-builder.js';
import { type SeekOrder, seekOrder } from './seek-order.js';
import { SPAN_CONFLICT, SQL } from './statements.js';
import { ATTEMPTS, RESOURCES, ROLLOUTS, SPANS, type Table, WORKERS } from './tables.js';

export type SqliteBackendOptions = SqliteConnectionOptions;

type Row = Record<string, SQLOutputValue>;

/** A row's record, parsed from its JSON `data`. */
const parseData = <T>(row: Row): T => JSON.parse(String(row.data)) as T;

const identity = (row: Row): Row => row;

/** A page's WHERE clause, and optionally disjoint parts whose union it is, read one by one (see `readRows`). */
interface Filter {
  where: Clause;
  arms?: Clause[];
}

/** A row's record as the JSON text it is stored as. */
const rowText = (row: Row): string => String(row.data);

/** Rows per multi-row span INSERT (10 parameters each, far below SQLite's limit of 32,766). */
const SPAN_ROWS_PER_INSERT = 25;

/** Thrown inside `insertSpanRows` when a span already existed: rolls its savepoint back. */
const SPAN_EXISTS = Symbol('span exists');

const insertSpansSqls = new Map<number, string>();

/** `INSERT … VALUES (…), (…), … ON CONFLICT DO NOTHING` for `rows` spans. */
function insertSpansSql(rows: number): string {
  let sql = insertSpansSqls.get(rows);
  if (sql === undefined) {
    sql = SPANS.insertSqlForRows(rows, SPAN_CONFLICT);
    insertSpansSqls.set(rows, sql);
  }
  return sql;
}

/** SQLite extended result codes for a violated PRIMARY KEY / UNIQUE constraint. */
const UNIQUE_VIOLATIONS = new Set([1555, 2067]);

/**
 * The embedded default backend: one SQLite file (WAL, `synchronous=NORMAL` unless told otherwise) that
 * several processes may share. Every acknowledged write survives a process crash (with `synchronous: 'full'`
 * also a power loss); `transaction` is `BEGIN IMMEDIATE`.
 */
export class SqliteBackend implements StoreBackend {
  readonly name = 'sqlite';
  private readonly db: SqliteConnection;
  private readonly pageEnds = new PageEnds();

  constructor(options: SqliteBackendOptions) {
    if (typeof options?.path !== 'string' || options.path === '') {
      throw new ValidationError('SqliteBackend: path must be a file path or ":memory:"');
    }
    this.db = new SqliteConnection(options);
    try {
      if (options.readOnly !== true) {
        migrate(this.db);
        this.db.commitGroup(); // the schema is committed before the constructor returns
      } else if (!readableWithoutMigrating(userVersion(this.db))) {
        throw new StoreError(
          `SqliteBackend: database ${options.path} has schema version ${userVersion(this.db)}, expected ` +
            `${SCHEMA_VERSION}; a read-only store cannot migrate it`,
        );
      }
    } catch (error) {
      this.db.close();
      throw error;
    }
  }

  /** The database file (or ':memory:'). */
  get path(): string {
    return this.db.path;
  }

  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn);
  }

  snapshot<T>(fn: () => T): T {
    return this.db.snapshot(fn);
  }

  pendingCommit(): Promise<void> | undefined {
    return this.db.pendingCommit();
  }

  close(): void {
    this.db.close();
  }

  // ---------------------------------------------------------------- rollouts

  insertRollout(rollout: Rollout): void {
    this.insert(ROLLOUTS, rollout, `insertRollout: rollout_id "${rollout.rollout_id}"`);
  }

  putRollout(rollout: Rollout): void {
    this.update(ROLLOUTS, rollout, `putRollout: rollout_id "${rollout.rollout_id}"`);
  }

  getRollout(rolloutId: string): Rollout | undefined {
    return this.one<Rollout>(SQL.rolloutById, rolloutId);
  }

  queryRollouts(query: RolloutQuery): Page<Rollout> {
    const where = (statuses: readonly string[] | null | undefined): Clause =>
      new Conditions(ROLLOUTS)
        .within('status', statuses)
        .within('rollout_id', query.rollout_id_in)
        .contains('rollout_id', query.rollout_id_contains)
        .where(query.filter_logic);
    // Several statuses, ANDed with the rest: a page reads each status's first rows in order from the (status, start
    // time) index and sorts only those, instead of sorting every rollout of those statuses (see `readRows`).
    const statuses = [...new Set(query.status_in ?? [])];
    const anded =
      query.filter_logic !== 'or' ||
      (query.rollout_id_in == null && query.rollout_id_contains == null);
    const arms =
      statuses.length > 1 && anded ? statuses.map((status) => where([status])) : undefined;
    return this.page(ROLLOUTS, { where: where(query.status_in), arms }, query, parseData<Rollout>);
  }

  rolloutsWithStatus(statuses: readonly RolloutStatus[]): Rollout[] {
    if (statuses.length === 0) return [];
    return this.all(parseData<Rollout>, SQL.rolloutsWithStatus, JSON.stringify(statuses));
  }

  // ---------------------------------------------------------------- queue

  pushQueue(rolloutIds: string[]): void {
    if (rolloutIds.length === 0) return;
    this.db.transaction(() => {
      const statement = this.db.prepare(SQL.pushQueue);
      for (const id of rolloutIds) statement.run(id);
    });
  }

  popQueue(): string | undefined {
    const row = this.db.prepare(SQL.popQueue).get();
    return row === undefined ? undefined : String(row.rollout_id);
  }

  queueSize(): number {
    return this.count(SQL.queueSize);
  }

  queueHas(rolloutId: string): boolean {
    return this.db.prepare(SQL.queueHas).get(rolloutId) !== undefined;
  }

  // ---------------------------------------------------------------- attempts

  insertAttempt(attempt: Attempt): void {
    const { rollout_id, attempt_id } = attempt;
    this.insert(
      ATTEMPTS,
      attempt,
      `insertAttempt: attempt_id "${attempt_id}" in rollout "${rollout_id}"`,
    );
  }

  putAttempt(attempt: Attempt): void {
    const { rollout_id, attempt_id } = attempt;
    this.update(
      ATTEMPTS,
      attempt,
      `putAttempt: attempt_id "${attempt_id}" in rollout "${rollout_id}"`,
    );
  }

  getAttempt(rolloutId: string, attemptId: string): Attempt | undefined {
    return this.one<Attempt>(SQL.attemptById, rolloutId, attemptId);
  }

  getLatestAttempt(rolloutId: string): Attempt | undefined {
    return this.one<Attempt>(SQL.latestAttempt, rolloutId);
  }

  latestAttemptId(rolloutId: string): string | undefined {
    const row = this.db.prepare(SQL.latestAttemptId).get(rolloutId);
    return row === undefined ? undefined : String(row.attempt_id);
  }

  latestAttempts(rolloutIds: string[]): Map<string, Attempt> {
    const latest = new Map<string, Attempt>();
    if (rolloutIds.length === 0) return latest;
    for (const row of this.db.prepare(SQL.latestAttempts).all(JSON.stringify(rolloutIds))) {
      latest.set(String(row.rollout_id), JSON.parse(String(row.data)) as Attempt);
    }
    return latest;
  }

  countAttempts(rolloutId: string): number {
    return this.count(SQL.countAttempts, rolloutId);
  }

  queryAttempts(rolloutId: string, query: PageQuery): Page<Attempt> {
    return this.page(
      ATTEMPTS,
      { where: new Conditions(ATTEMPTS).require('rollout_id', rolloutId).where() },
      query,
      parseData<Attempt>,
    );
  }

  // ---------------------------------------------------------------- spans

  insertSpans(spans: Span[]): boolean[] {
    if (spans.length === 0) return [];
    return this.db.atomic(() => {
      const json = spans.map((span) => JSON.stringify(span));
      // Rows go in multi-row INSERTs; if any span already exists (a retried export), those are undone and the
      // batch goes row by row instead, which tells which spans were new. One span goes row by row right away.
      const inserted =
        (spans.length > 1 ? this.insertSpanRows(spans, json) : undefined) ??
        this.insertSpansOneByOne(spans, json);
      let count = 0;
      let bytes = 0;
      for (let i = 0; i < spans.length; i++) {
        if (!inserted[i]) continue;
        count += 1;
        bytes += Buffer.byteLength(json[i]!);
      }
      if (count > 0) this.db.prepare(SQL.addSpanTotals).run(count, bytes);
      return inserted;
    });
  }

  /** All spans in multi-row INSERTs, or undefined (and nothing inserted) when some span already existed. */
  private insertSpanRows(spans: Span[], json: string[]): boolean[] | undefined {
    try {
      return this.db.transaction(() => {
        for (let start = 0; start < spans.length; start += SPAN_ROWS_PER_INSERT) {
          const end = Math.min(start + SPAN_ROWS_PER_INSERT, spans.length);
          const params: SQLInputValue[] = [];
          for (let i = start; i < end; i++) params.push(...SPANS.values(spans[i]!), json[i]!);
          const { changes } = this.db.prepare(insertSpansSql(end - start)).run(...params);
          if (Number(changes) !== end - start) throw SPAN_EXISTS;
        }
        return spans.map(() => true);
      });
    } catch (error) {
      if (error === SPAN_EXISTS) return undefined;
      throw error;
    }
  }

  private insertSpansOneByOne(spans: Span[], json: string[]): boolean[] {
    const statement = this.db.prepare(SQL.insertSpan);
    return spans.map(
      (span, i) => Number(statement.run(...SPANS.values(span), json[i]!).changes) > 0,
    );
  }

  querySpans(query: SpanQuery): Page<Span> {
    return this.page(SPANS, { where: this.spanWhere(query) }, query, parseData<Span>);
  }

  querySpanTexts(query: SpanQuery): Page<string> {
    return this.page(SPANS, { where: this.spanWhere(query) }, query, rowText);
  }

  private spanWhere(query: SpanQuery): Clause {
    const conditions = new Conditions(SPANS).require('rollout_id', query.rollout_id);
    if (query.attempt_id != null) conditions.require('attempt_id', query.attempt_id);
    return addSpanFilters(conditions, query).where(query.filter_logic);
  }

  // ---------------------------------------------------------------- span sequence ids

  allocateSequenceIds(rolloutId: string, count: number): number {
    if (!Number.isSafeInteger(count) || count < 0) {
      throw new ValidationError(
        `allocateSequenceIds: count must be a non-negative integer, got ${count}`,
      );
    }
    const row = this.db.prepare(SQL.allocateSequence).get(rolloutId, count);
    return Number(row?.last_id) - count + 1;
  }

  raiseSequenceId(rolloutId: string, sequenceId: number): void {
    if (!Number.isFinite(sequenceId)) {
      throw new ValidationError(
        `raiseSequenceId: sequenceId must be a finite number, got ${sequenceId}`,
      );
    }
    const floor = Math.floor(sequenceId);
    // Ids start at 1, so a counter at or below 0 is the same as no counter.
    if (floor > 0) this.db.prepare(SQL.raiseSequence).run(rolloutId, floor);
  }

  // ---------------------------------------------------------------- resources

  putResources(update: ResourcesUpdate): void {
    this.upsert(RESOURCES, update);
  }

  getResources(resourcesId: string): ResourcesUpdate | undefined {
    return this.one<ResourcesUpdate>(SQL.resourcesById, resourcesId);
  }

  getLatestResources(): ResourcesUpdate | undefined {
    return this.one<ResourcesUpdate>(SQL.latestResources);
  }

  queryResources(query: ResourcesQuery): Page<ResourcesUpdate> {
    const where = new Conditions(RESOURCES)
      .equals('resources_id', query.resources_id)
      .contains('resources_id', query.resources_id_contains)
      .where('and');
    return this.page(RESOURCES, { where }, query, parseData<ResourcesUpdate>);
  }

  // ---------------------------------------------------------------- workers

  putWorker(worker: Worker): void {
    this.upsert(WORKERS, worker);
  }

  getWorker(workerId: string): Worker | undefined {
    return this.one<Worker>(SQL.workerById, workerId);
  }

  queryWorkers(query: WorkerQuery): Page<Worker> {
    const where = new Conditions(WORKERS)
      .within('status', query.status_in)
      .contains('worker_id', query.worker_id_contains)
      .where(query.filter_logic);
    return this.page(WORKERS, { where }, query, parseData<Worker>);
  }

  // ---------------------------------------------------------------- statistics

  counts(): BackendCounts {
    const row = this.db.prepare(SQL.counts).get() ?? {};
    return {
      rollouts: Number(row.rollouts ?? 0),
      attempts: Number(row.attempts ?? 0),
      spans: Number(row.spans ?? 0),
      resources: Number(row.resources ?? 0),
      workers: Number(row.workers ?? 0),
      span_bytes: Number(row.bytes ?? 0),
    };
  }

  // ---------------------------------------------------------------- helpers

  private insert<T>(table: Table<T>, record: T, what: string): void {
    try {
      this.db.prepare(table.insertSql).run(...table.values(record), JSON.stringify(record));
    } catch (error) {
      if (UNIQUE_VIOLATIONS.has((error as { errcode?: number }).errcode ?? 0)) {
        throw new StoreError(`${what} already exists`, { cause: error });
      }
      throw error;
    }
  }

  private update<T>(table: Table<T>, record: T, what: string): void {
    const json = JSON.stringify(record);
    let { changes } = this.db.prepare(table.updateSql).run(...table.updateParams(record, json));
    if (Number(changes) === 0 && table.updateAny !== undefined) {
      ({ changes } = this.db
        .prepare(table.updateAny.sql)
        .run(...table.updateAny.params(record, json)));
    }
    if (Number(changes) === 0) throw new NotFoundError(`${what} does not exist`);
  }

  private upsert<T>(table: Table<T>, record: T): void {
    this.db.prepare(table.upsertSql).run(...table.values(record), JSON.stringify(record));
  }

  private one<T>(sql: string, ...params: SQLInputValue[]): T | undefined {
    const row = this.db.prepare(sql).get(...params);
    return row === undefined ? undefined : (JSON.parse(String(row.data)) as T);
  }

  /** Every row of `sql`, each through `item`. */
  private all<T>(item: (row: Row) => T, sql: string, ...params: SQLInputValue[]): T[] {
    return this.db
      .prepare(sql)
      .all(...params)
      .map(item);
  }

  private count(sql: string, ...params: SQLInputValue[]): number {
    return Number(this.db.prepare(sql).get(...params)?.n ?? 0);
  }

  /**
   * One page (each row's `data` through `item`) plus the total number of matches, read from one snapshot. The
   * page right after a full page of the same query starts where that one ended, with its total, when nothing was
   * written in between (../page-ends.ts); otherwise it is read with LIMIT/OFFSET.
   */
  private page<T>(
    table: Table<unknown>,
    filter: Filter,
    query: PageQuery,
    item: (row: Row) => T,
  ): Page<T> {
    const { where } = filter;
    const order = orderBy(table, query.sort_by, query.sort_order);
    const seek = query.limit > 0 ? seekOrder(table, query) : undefined;
    const columns = `data${seek ? `, ${seek.columns}` : ''}`;
    const key =
      seek && PageEnds.keyOf(`${columns} FROM ${table.table}${where.sql}${order}`, where.params);
    return this.db.snapshot(() => {
      let token: string | undefined;
      let rows: Row[] | undefined;
      let total: number | undefined;
      const end = key === undefined ? undefined : this.pageEnds.at(key, query.offset);
      if (seek && end) {
        token = this.changeToken();
        if (end.token === token) {
          rows = this.rowsAfter(table, filter, seek, end, query.limit);
          total = end.total;
        }
      }
      rows ??= this.readRows(
        table,
        filter,
        undefined,
        columns,
        order,
        query.limit,
        query.offset,
        orderColumns(query.sort_by),
      );
      const items = rows.map(item);
      // The page itself tells the total unless it was cut by the limit or started past the end.
      const complete =
        (query.limit < 0 || items.length < query.limit) && (items.length > 0 || query.offset === 0);
      total ??= complete
        ? query.offset + items.length
        : this.count(`SELECT count(*) AS n FROM ${table.table}${where.sql}`, ...where.params);
      const last = rows.at(-1);
      if (key !== undefined && last !== undefined && rows.length === query.limit) {
        this.pageEnds.keep(key, {
          offset: query.offset + rows.length,
          token: token ?? this.changeToken(),
          key: last.seek_key ?? null,
          pk: last.seek_pk ?? null,
          total,
        });
      }
      return { items, total };
    });
  }

  /** Up to `limit` rows of `filter` after `end` in the seek's order, read through its index. */
  private rowsAfter(
    table: Table<unknown>,
    filter: Filter,
    seek: SeekOrder,
    end: PageEnd,
    limit: number,
  ): Row[] {
    const rows: Row[] = [];
    const columns = `data, ${seek.columns}`;
    for (const part of seek.after(end.key as SQLOutputValue, end.pk as SQLOutputValue)) {
      const read = this.readRows(
        table,
        filter,
        part.where,
        columns,
        part.orderBy,
        limit - rows.length,
      );
      rows.push(...read);
      if (rows.length >= limit) break;
    }
    return rows;
  }

  /**
   * `columns` of up to `limit` rows (-1: all) of `filter` and `extra`, in `order`, after `offset` rows (no OFFSET
   * clause when undefined). A filter with arms (disjoint parts whose union it is, each served in `order` by an
   * index) reads the first offset + limit rows of each arm and sorts only those: a page of two common statuses
   * out of 200,000 rollouts took 509 ms sorting every match.
   *
   * A page deeper than it is long is read in two steps: the pks of its rows, from `sortColumns` (the columns
   * `order` reads, which the order's index holds), then those rows. Whenever SQLite sorts on the way to an OFFSET (the
   * ties of a descending order, the arms' rows together), it carries every row it steps over, data and all: a page
   * 190,000 rows deep newest first took 200 ms that way and 36 ms this way; one 120,000 rows deep among two
   * statuses 370 → 78 ms.
   */
  private readRows(
    table: Table<unknown>,
    filter: Filter,
    extra: Clause | undefined,
    columns: string,
    order: string,
    limit: number,
    offset?: number,
    sortColumns = 'pk',
  ): Row[] {
    const page = offset === undefined ? ' LIMIT ?' : ' LIMIT ? OFFSET ?';
    const paging = offset === undefined ? [limit] : [limit, offset];
    // Worth it when more rows are stepped over than returned: 100,001 rows from 50,000 on took 168 ms in two
    // steps (the second sorts the page with its data) against ~100 ms in one.
    const twoSteps = offset !== undefined && limit >= 0 && offset > limit;
    const select = (source: string, params: SQLInputValue[]): Row[] => {
      const sql = twoSteps
        ? `SELECT ${columns} FROM ${table.table} WHERE pk IN (SELECT pk FROM ${source}${order}${page})${order}`
        : `SELECT ${columns} FROM ${source}${order}${page}`;
      return this.all(identity, sql, ...params, ...paging);
    };
    if (filter.arms === undefined || limit < 0) {
      const where = andWhere(filter.where, extra);
      return select(`${table.table}${where.sql}`, where.params);
    }
    const arms = filter.arms.map((arm) => andWhere(arm, extra));
    const armColumns = twoSteps ? sortColumns : '*';
    const union = arms
      .map(
        (arm) =>
          `SELECT * FROM (SELECT ${armColumns} FROM ${table.table}${arm.sql}${order} LIMIT ?)`,
      )
      .join(' UNION ALL ');
    return select(
      `(${union})`,
      arms.flatMap((arm) => [...arm.params, (offset ?? 0) + limit]),
    );
  }

  /**
   * Changes with every write: this connection's (`total_changes()`: even writes later rolled back), its rollbacks
   * (which undo writes a read may have seen, in an open commit group) and other connections' commits.
   */
  private changeToken(): string {
    const row = this.db.prepare(SQL.changeToken).get();
    return `${String(row?.changes)}:${this.db.undoCount}:${String(row?.version)}`;
  }
}
