import type {
  Attempt,
  ResourcesUpdate,
  Rollout,
  RolloutStatus,
  Span,
  Worker,
} from '@arclight/core';
import {
  addSpanFilters,
  type BackendCounts,
  type Page,
  PageEnds,
  type PageQuery,
  type ResourcesQuery,
  type RolloutQuery,
  type SpanQuery,
  type WorkerQuery,
} from '@arclight/store';
import type { QueryResultRow } from 'pg';
import { seekOrder } from './seek-order.js';
import {
  ATTEMPTS,
  type Columns,
  Conditions,
  orderBy,
  RESOURCES,
  ROLLOUTS,
  SPANS,
  WORKERS,
} from './sql-query.js';

/** Anything that runs a query: a pool (autocommit) or a client inside a transaction. */
export interface Queryable {
  query<R extends QueryResultRow = QueryResultRow>(
    text: string,
    values?: unknown[],
  ): Promise<{ rows: R[]; rowCount: number | null }>;
}

const json = (value: unknown): string => JSON.stringify(value);

/**
 * Record access over one connection (a transaction's client, or the pool for single-statement reads).
 * `lock` variants take row locks (`FOR UPDATE`) that are held until the transaction ends; every write to a
 * rollout, its attempts or its spans happens under that rollout's row lock, which serializes them across
 * every process sharing the database.
 */
export class Tables {
  /**
   * `pageEnds`: where recent full pages ended, for reads in a read-only transaction only (a transaction's own
   * writes do not show in its snapshot's text, so they could not tell a page kept before them from one after).
   */
  constructor(
    readonly db: Queryable,
    private readonly pageEnds?: PageEnds,
  ) {}

  private async docs<T>(sql: string, params: unknown[]): Promise<T[]> {
    const { rows } = await this.db.query<{ doc: T }>(sql, params);
    return rows.map((r) => r.doc);
  }

  private async one<T>(sql: string, params: unknown[]): Promise<T | undefined> {
    return (await this.docs<T>(sql, params))[0];
  }

  // ---- rollouts

  insertRollouts(rollouts: Rollout[]): Promise<unknown> {
    return this.db.query(
      'INSERT INTO rollouts (rollout_id, doc) SELECT * FROM unnest($1::text[], $2::json[])',
      [rollouts.map((r) => r.rollout_id), rollouts.map(json)],
    );
  }

  putRollout(rollout: Rollout): Promise<unknown> {
    return this.db.query('UPDATE rollouts SET doc = $2 WHERE rollout_id = $1', [
      rollout.rollout_id,
      json(rollout),
    ]);
  }

  getRollout(rolloutId: string, lock = false): Promise<Rollout | undefined> {
    return this.one(`SELECT doc FROM rollouts WHERE rollout_id = $1${lock ? ' FOR UPDATE' : ''}`, [
      rolloutId,
    ]);
  }

  /** Locks the rollouts that exist among `ids` (in id order, so that two lockers never deadlock). */
  lockRollouts(ids: string[]): Promise<Rollout[]> {
    return this.docs(
      'SELECT doc FROM rollouts WHERE rollout_id = ANY($1) ORDER BY rollout_id FOR UPDATE',
      [ids],
    );
  }

  getRollouts(ids: string[]): Promise<Rollout[]> {
    return this.docs('SELECT doc FROM rollouts WHERE rollout_id = ANY($1)', [ids]);
  }

  /** Rollouts in `statuses`, locked; rows another transaction holds are skipped (it is working on them). */
  lockRolloutsWithStatus(statuses: readonly RolloutStatus[]): Promise<Rollout[]> {
    return this.docs(
      'SELECT doc FROM rollouts WHERE status = ANY($1) ORDER BY rollout_id FOR UPDATE SKIP LOCKED',
      [statuses],
    );
  }

  queryRollouts(query: RolloutQuery): Promise<Page<Rollout>> {
    const where = new Conditions()
      .within('status', query.status_in)
      .within('rollout_id', query.rollout_id_in)
      .contains('rollout_id', query.rollout_id_contains);
    return this.page(ROLLOUTS, where, where.where(query.filter_logic), query);
  }

  // ---- queue

  pushQueue(rolloutIds: string[]): Promise<unknown> {
    return this.db.query('INSERT INTO rollout_queue (rollout_id) SELECT unnest($1::text[])', [
      rolloutIds,
    ]);
  }

  /**
   * Removes up to `limit` ids from the head of the queue. Entries other transactions are taking right now
   * are skipped, so concurrent dequeuers in any number of processes never get the same entry.
   */
  async popQueue(limit: number): Promise<string[]> {
    const { rows } = await this.db.query<{ rollout_id: string; pos: string }>(
      `DELETE FROM rollout_queue WHERE pos IN (
         SELECT pos FROM rollout_queue ORDER BY pos LIMIT $1 FOR UPDATE SKIP LOCKED
       ) RETURNING rollout_id, pos`,
      [limit],
    );
    return rows.sort((a, b) => Number(a.pos) - Number(b.pos)).map((r) => r.rollout_id);
  }

  async queueHas(rolloutId: string): Promise<boolean> {
    const { rows } = await this.db.query(
      'SELECT 1 FROM rollout_queue WHERE rollout_id = $1 LIMIT 1',
      [rolloutId],
    );
    return rows.length > 0;
  }

  // ---- attempts

  insertAttempt(attempt: Attempt): Promise<unknown> {
    return this.db.query('INSERT INTO attempts (rollout_id, attempt_id, doc) VALUES ($1, $2, $3)', [
      attempt.rollout_id,
      attempt.attempt_id,
      json(attempt),
    ]);
  }

  putAttempt(attempt: Attempt): Promise<unknown> {
    return this.db.query('UPDATE attempts SET doc = $3 WHERE rollout_id = $1 AND attempt_id = $2', [
      attempt.rollout_id,
      attempt.attempt_id,
      json(attempt),
    ]);
  }

  getAttempt(rolloutId: string, attemptId: string): Promise<Attempt | undefined> {
    return this.one('SELECT doc FROM attempts WHERE rollout_id = $1 AND attempt_id = $2', [
      rolloutId,
      attemptId,
    ]);
  }

  getLatestAttempt(rolloutId: string): Promise<Attempt | undefined> {
    return this.one(
      'SELECT doc FROM attempts WHERE rollout_id = $1 ORDER BY sequence_id DESC LIMIT 1',
      [rolloutId],
    );
  }

  async latestAttempts(rolloutIds: string[]): Promise<Map<string, Attempt>> {
    if (rolloutIds.length === 0) return new Map();
    const attempts = await this.docs<Attempt>(
      `SELECT DISTINCT ON (rollout_id) doc FROM attempts WHERE rollout_id = ANY($1)
       ORDER BY rollout_id, sequence_id DESC`,
      [rolloutIds],
    );
    return new Map(attempts.map((a) => [a.rollout_id, a]));
  }

  async countAttempts(rolloutId: string): Promise<number> {
    const { rows } = await this.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM attempts WHERE rollout_id = $1',
      [rolloutId],
    );
    return rows[0]!.n;
  }

  queryAttempts(rolloutId: string, query: PageQuery): Promise<Page<Attempt>> {
    const where = new Conditions().require('rollout_id', rolloutId);
    return this.page(ATTEMPTS, where, where.where(), query);
  }

  /**
   * The attempts named by (rollout, attempt) pairs, each with whether it is its rollout's latest attempt
   * (missing attempts are absent).
   */
  async attemptsWithLatest(
    pairs: Array<[string, string]>,
  ): Promise<Array<{ attempt: Attempt; latest: boolean }>> {
    const { rows } = await this.db.query<{ doc: Attempt; latest: boolean }>(
      `SELECT a.doc, a.sequence_id = m.top AS latest
       FROM unnest($1::text[], $2::text[]) AS k(rollout_id, attempt_id)
       JOIN attempts a ON a.rollout_id = k.rollout_id AND a.attempt_id = k.attempt_id
       CROSS JOIN LATERAL (SELECT max(sequence_id) AS top FROM attempts x WHERE x.rollout_id = a.rollout_id) m`,
      [pairs.map((k) => k[0]), pairs.map((k) => k[1])],
    );
    return rows.map((r) => ({ attempt: r.doc, latest: r.latest }));
  }

  putAttempts(attempts: Attempt[]): Promise<unknown> {
    return this.db.query(
      `UPDATE attempts a SET doc = v.doc
       FROM unnest($1::text[], $2::text[], $3::json[]) AS v(rollout_id, attempt_id, doc)
       WHERE a.rollout_id = v.rollout_id AND a.attempt_id = v.attempt_id`,
      [attempts.map((a) => a.rollout_id), attempts.map((a) => a.attempt_id), attempts.map(json)],
    );
  }

  putRollouts(rollouts: Rollout[]): Promise<unknown> {
    return this.db.query(
      `UPDATE rollouts r SET doc = v.doc FROM unnest($1::text[], $2::json[]) AS v(rollout_id, doc)
       WHERE r.rollout_id = v.rollout_id`,
      [rollouts.map((r) => r.rollout_id), rollouts.map(json)],
    );
  }

  // ---- spans

  /** Inserts in order; one flag per span, false where the key already existed (or repeats in the batch). */
  async insertSpans(spans: Span[]): Promise<boolean[]> {
    const docs = spans.map(json);
    const { rows } = await this.db.query<{ r: string; a: string; s: string }>(
      `INSERT INTO spans (rollout_id, attempt_id, span_id, doc, bytes)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::json[], $5::int[])
       ON CONFLICT DO NOTHING
       RETURNING rollout_id AS r, attempt_id AS a, span_id AS s`,
      [
        spans.map((s) => s.rollout_id),
        spans.map((s) => s.attempt_id),
        spans.map((s) => s.span_id),
        docs,
        docs.map((d) => Buffer.byteLength(d)),
      ],
    );
    const fresh = new Set(rows.map((r) => `${r.r}\u0000${r.a}\u0000${r.s}`));
    return spans.map((s) => fresh.delete(`${s.rollout_id}\u0000${s.attempt_id}\u0000${s.span_id}`));
  }

  querySpans(query: SpanQuery): Promise<Page<Span>> {
    const where = new Conditions().require('rollout_id', query.rollout_id);
    if (query.attempt_id != null) where.require('attempt_id', query.attempt_id);
    addSpanFilters(where, query);
    return this.page(SPANS, where, where.where(query.filter_logic), query);
  }

  // ---- span sequence ids (one counter row per rollout; the row lock makes allocation atomic)

  async allocateSequenceIds(rolloutId: string, count: number): Promise<number> {
    const { rows } = await this.db.query<{ first: string }>(
      `INSERT INTO span_sequences AS s (rollout_id, last_id) VALUES ($1, $2)
       ON CONFLICT (rollout_id) DO UPDATE SET last_id = s.last_id + $2
       RETURNING s.last_id - $2 + 1 AS first`,
      [rolloutId, count],
    );
    return Number(rows[0]!.first);
  }

  /** Makes every rollout's next allocated id greater than its given sequence id (counter rows in id order). */
  raiseSequenceIds(highest: Map<string, number>): Promise<unknown> {
    const ids = [...highest.keys()].sort();
    return this.db.query(
      `INSERT INTO span_sequences AS s (rollout_id, last_id)
       SELECT * FROM unnest($1::text[], $2::bigint[])
       ON CONFLICT (rollout_id) DO UPDATE SET last_id = greatest(s.last_id, EXCLUDED.last_id)`,
      [ids, ids.map((id) => highest.get(id)!)],
    );
  }

  // ---- resources

  putResources(update: ResourcesUpdate): Promise<unknown> {
    return this.db.query(
      `INSERT INTO resources (resources_id, write_seq, doc) VALUES ($1, nextval('resources_writes'), $2)
       ON CONFLICT (resources_id) DO UPDATE SET doc = EXCLUDED.doc, write_seq = EXCLUDED.write_seq`,
      [update.resources_id, json(update)],
    );
  }

  getResources(resourcesId: string, lock = false): Promise<ResourcesUpdate | undefined> {
    return this.one(
      `SELECT doc FROM resources WHERE resources_id = $1${lock ? ' FOR UPDATE' : ''}`,
      [resourcesId],
    );
  }

  getLatestResources(): Promise<ResourcesUpdate | undefined> {
    return this.one(
      'SELECT doc FROM resources ORDER BY update_time DESC, write_seq DESC LIMIT 1',
      [],
    );
  }

  queryResources(query: ResourcesQuery): Promise<Page<ResourcesUpdate>> {
    const where = new Conditions()
      .equals('resources_id', query.resources_id)
      .contains('resources_id', query.resources_id_contains);
    return this.page(RESOURCES, where, where.where('and'), query);
  }

  // ---- workers

  putWorker(worker: Worker): Promise<unknown> {
    return this.db.query(
      `INSERT INTO workers (worker_id, doc) VALUES ($1, $2)
       ON CONFLICT (worker_id) DO UPDATE SET doc = EXCLUDED.doc`,
      [worker.worker_id, json(worker)],
    );
  }

  getWorker(workerId: string): Promise<Worker | undefined> {
    return this.one('SELECT doc FROM workers WHERE worker_id = $1', [workerId]);
  }

  /** Locks the worker row, creating it from `fresh` first when it does not exist. */
  async lockWorker(fresh: Worker): Promise<Worker> {
    await this.db.query(
      'INSERT INTO workers (worker_id, doc) VALUES ($1, $2) ON CONFLICT (worker_id) DO NOTHING',
      [fresh.worker_id, json(fresh)],
    );
    return (await this.one<Worker>('SELECT doc FROM workers WHERE worker_id = $1 FOR UPDATE', [
      fresh.worker_id,
    ]))!;
  }

  queryWorkers(query: WorkerQuery): Promise<Page<Worker>> {
    const where = new Conditions()
      .within('status', query.status_in)
      .contains('worker_id', query.worker_id_contains);
    return this.page(WORKERS, where, where.where(query.filter_logic), query);
  }

  async counts(): Promise<BackendCounts> {
    const { rows } = await this.db.query<Record<keyof BackendCounts, string>>(
      // Spans are counted and summed in one pass over the table (two subqueries scanned it twice: 1,000,000
      // spans 315 → 230 ms).
      `SELECT (SELECT count(*) FROM rollouts) AS rollouts, (SELECT count(*) FROM attempts) AS attempts,
              s.spans, s.span_bytes, (SELECT count(*) FROM resources) AS resources,
              (SELECT count(*) FROM workers) AS workers
       FROM (SELECT count(*) AS spans, coalesce(sum(bytes), 0) AS span_bytes FROM spans) AS s`,
    );
    const row = rows[0]!;
    return {
      rollouts: Number(row.rollouts),
      attempts: Number(row.attempts),
      spans: Number(row.spans),
      resources: Number(row.resources),
      workers: Number(row.workers),
      span_bytes: Number(row.span_bytes),
    };
  }

  /**
   * One page plus the total number of matches, from one snapshot (one statement). The page right after a full
   * page of the same query starts where that one ended, with its total, when it is read in the same snapshot
   * text (see seek-order.ts); otherwise, or when that read finds no row, it is read with LIMIT/OFFSET.
   */
  private async page<T>(
    columns: Columns,
    conditions: Conditions,
    where: string,
    query: PageQuery,
  ): Promise<Page<T>> {
    const params = [...conditions.params];
    const order = orderBy(columns, query.sort_by, query.sort_order);
    const seek = this.pageEnds && query.limit > 0 ? seekOrder(columns, query) : undefined;
    const select = `SELECT doc${seek ? `, ${seek.columns}` : ''}, pg_current_snapshot()::text AS snap`;
    const key = seek && PageEnds.keyOf(`${select} FROM ${columns.table}${where}${order}`, params);
    const end = key === undefined ? undefined : this.pageEnds?.at(key, query.offset);
    let rows: PageRow<T>[] | undefined;
    let total = 0;
    if (seek && end) {
      const seekParams = [...params];
      const after = seek.after(end, seekParams);
      const condition =
        where === '' ? ` WHERE ${after}` : ` WHERE (${where.slice(7)}) AND ${after}`;
      const read = await this.db.query<PageRow<T>>(
        `${select} FROM ${columns.table}${condition}${order} LIMIT $${seekParams.length + 1}`,
        [...seekParams, query.limit],
      );
      if (read.rows[0]?.snap === end.token) {
        rows = read.rows;
        total = end.total;
      }
    }
    if (rows === undefined) {
      const n = params.length;
      const counted = `(SELECT count(*) FROM ${columns.table}${where}) AS total`;
      ({ rows } = await this.db.query<PageRow<T>>(
        `${select}, ${counted} FROM ${columns.table}${where}${order} LIMIT $${n + 1} OFFSET $${n + 2}`,
        [...params, query.limit < 0 ? null : query.limit, query.offset],
      ));
      if (rows.length === 0) {
        // Past the end (or nothing matches): the count comes from a statement of its own.
        return {
          items: [],
          total: query.offset === 0 ? 0 : await this.count(columns, where, params),
        };
      }
      total = Number(rows[0]!.total);
    }
    const last = rows.at(-1);
    if (key !== undefined && last !== undefined && rows.length === query.limit) {
      this.pageEnds?.keep(key, {
        offset: query.offset + rows.length,
        token: last.snap,
        key: last.seek_key,
        pk: last.seek_pk,
        total,
      });
    }
    return { items: rows.map((r) => r.doc), total };
  }

  private async count(columns: Columns, where: string, params: unknown[]): Promise<number> {
    const { rows } = await this.db.query<{ n: string }>(
      `SELECT count(*) AS n FROM ${columns.table}${where}`,
      params,
    );
    return Number(rows[0]!.n);
  }
}

/** A row of `page`'s statements: the record, its place in the order (seek reads), the snapshot, the total. */
interface PageRow<T> {
  doc: T;
  seek_key?: unknown;
  seek_pk?: unknown;
  snap: string;
  total?: string;
}
