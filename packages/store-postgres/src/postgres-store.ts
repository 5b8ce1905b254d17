import {
  type Attempt,
  type AttemptedRollout,
  isQueuing,
  type NamedResources,
  type OtelSpanLike,
  type PaginatedResult,
  parseNamedResources,
  type ResourcesUpdate,
  type Rollout,
  type Span,
  StoreClosedError,
  StoreError,
  spanFromOtel,
  type Worker,
} from '@arclight/core';
import {
  assignSequenceIds,
  attemptChanges,
  attemptQuery,
  checkSequenceId,
  checkSpans,
  type DequeueManyParams,
  type DequeueParams,
  dequeueRequest,
  type EnqueueRolloutParams,
  enqueueLabel,
  finishedInOrder,
  heartbeatStats,
  hydrateResources,
  type LightningStore,
  type LightningStoreCapabilities,
  type LightningStoreStatistics,
  markWorkerIdleAfterEmptyDequeue,
  newAttemptRecord,
  newRolloutRecord,
  storeParams as p,
  paginated,
  type QueryAttemptsParams,
  type QueryResourcesParams,
  type QueryRolloutsParams,
  type QuerySpansParams,
  type QueryWorkersParams,
  resourcesQuery,
  resourcesRecord,
  rolloutChanges,
  rolloutQuery,
  type StartAttemptParams,
  type StartRolloutParams,
  sequenceIdRequests,
  spanQuery,
  targetAttempt,
  type UpdateAttemptParams,
  type UpdateRolloutParams,
  type UpdateWorkerParams,
  type WaitForRolloutsParams,
  waitRequest,
  workerHeartbeat,
  workerQuery,
} from '@arclight/store';
import pg from 'pg';
import { FINISHED_CHANNEL, FinishedListener, finishedPayloads } from './finished-listener.js';
import { migrate, quoteSchema } from './migrations.js';
import { Operations } from './operations.js';
import { Tables } from './tables.js';

export interface PostgresStoreOptions {
  /** e.g. `postgres://user:password@host:5432/database` (libpq-style URL; `PG*` variables fill the gaps). */
  connectionString: string;
  /** The schema holding the store's tables, created and migrated on open (default `arclight`). */
  schema?: string;
  /** Connections in this process's pool (default 10). */
  poolSize?: number;
  /** Epoch seconds; injectable so tests can drive timestamps and the watchdog. */
  clock?: () => number;
  /** The watchdog runs at most once per this many seconds across all processes (default 10; 0 = every call). */
  scanDebounceSeconds?: number;
  /** A waiting `waitForRollouts` re-reads at least this often even without a notification (default 5). */
  waitRecheckSeconds?: number;
}

const systemClock = (): number => Date.now() / 1000;

/** Deadlock and serialization failures: the transaction is retried from the start. */
const RETRYABLE = new Set(['40P01', '40001']);
const MAX_ATTEMPTS = 8;

/**
 * A LightningStore in PostgreSQL, with the semantics of the in-memory and SQLite stores, that any number of
 * processes (store servers on one or many machines) can share. Every call is one transaction; dequeues use
 * `FOR UPDATE SKIP LOCKED`; rollout transitions happen under the rollout's row lock; span sequence ids come
 * from a per-rollout counter row; `waitForRollouts` sleeps on `LISTEN/NOTIFY`.
 *
 * Open with `await PostgresLightningStore.open({ connectionString })` (creates and migrates the schema).
 */
export class PostgresLightningStore implements LightningStore {
  readonly capabilities: LightningStoreCapabilities = {
    thread_safe: true,
    async_safe: true,
    zero_copy: false,
    otlp_traces: false,
  };

  readonly schema: string;
  private readonly pool: pg.Pool;
  private readonly now: () => number;
  private readonly debounceSeconds: number;
  private readonly launchTime: number;
  private lastScanTime: number;
  private scanning: Promise<void> | null = null;
  private closed = false;
  private readonly listener: FinishedListener;

  private constructor(options: PostgresStoreOptions) {
    this.schema = options.schema ?? 'arclight';
    const config: pg.ClientConfig = {
      connectionString: options.connectionString,
      options: `-c search_path=${quoteSchema(this.schema)}`,
      application_name: 'arclight-store',
    };
    this.pool = new pg.Pool({ ...config, max: options.poolSize ?? 10 });
    // An idle connection that breaks is dropped by the pool; without a listener the error would crash the process.
    this.pool.on('error', () => undefined);
    this.now = options.clock ?? systemClock;
    this.debounceSeconds = options.scanDebounceSeconds ?? 10;
    this.launchTime = this.now();
    this.lastScanTime = Number.NEGATIVE_INFINITY;
    this.listener = new FinishedListener(
      config,
      this.schema,
      (options.waitRecheckSeconds ?? 5) * 1000,
    );
  }

  /** Connects, creates/migrates the schema and returns the store. */
  static async open(options: PostgresStoreOptions): Promise<PostgresLightningStore> {
    if (typeof options?.connectionString !== 'string' || options.connectionString === '') {
      throw new StoreError(
        'PostgresLightningStore: connectionString is required, e.g. postgres://user:password@127.0.0.1:5432/arclight',
      );
    }
    const store = new PostgresLightningStore(options);
    try {
      const client = await store.pool.connect();
      try {
        await migrate(client, store.schema);
      } finally {
        client.release();
      }
    } catch (error) {
      await store.pool.end().catch(() => undefined);
      throw new StoreError(
        `PostgresLightningStore: cannot open ${redact(options.connectionString)} (schema ${store.schema}): ` +
          `${(error as Error).message}`,
      );
    }
    return store;
  }

  // ------------------------------------------------------------------ lifecycle

  async statistics(): Promise<LightningStoreStatistics> {
    this.ensureOpen();
    const counts = await new Tables(this.pool).counts();
    return {
      name: 'PostgresLightningStore',
      total_rollouts: counts.rollouts,
      total_attempts: counts.attempts,
      total_spans: counts.spans,
      total_resources: counts.resources,
      total_workers: counts.workers,
      uptime: this.now() - this.launchTime,
      total_span_bytes: counts.span_bytes,
      eviction_threshold_bytes: null,
      safe_threshold_bytes: null,
      memory_capacity_bytes: null,
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.listener.close();
    await this.scanning?.catch(() => undefined);
    await this.pool.end();
  }

  // ------------------------------------------------------------------ rollouts and the queue

  async startRollout(params: StartRolloutParams): Promise<AttemptedRollout> {
    const workerId = p.optionalString('worker_id', params.worker_id);
    return this.write(true, async (ops) => {
      const latest = (await ops.tables.getLatestResources())?.resources_id ?? null;
      const rollout = newRolloutRecord(params, 'preparing', latest, this.now());
      const attempt = newAttemptRecord(rollout.rollout_id, 1, workerId, rollout.start_time);
      await ops.tables.insertRollouts([rollout]);
      await ops.tables.insertAttempt(attempt);
      if (workerId) await ops.syncWorker(attempt, false);
      return { ...rollout, attempt };
    });
  }

  async enqueueRollout(params: EnqueueRolloutParams): Promise<Rollout> {
    const [rollout] = await this.enqueueManyRollouts([params]);
    return rollout!;
  }

  async enqueueManyRollouts(requests: EnqueueRolloutParams[]): Promise<Rollout[]> {
    if (!Array.isArray(requests)) throw p.invalid('rollouts', 'expected a list');
    return this.write(true, async (ops) => {
      const latest = (await ops.tables.getLatestResources())?.resources_id ?? null;
      const now = this.now();
      const rollouts = requests.map((request, i) =>
        newRolloutRecord(request, 'queuing', latest, now, enqueueLabel(i, requests.length)),
      );
      if (rollouts.length === 0) return rollouts;
      await ops.tables.insertRollouts(rollouts);
      await ops.tables.pushQueue(rollouts.map((r) => r.rollout_id));
      return rollouts;
    });
  }

  async dequeueRollout(params: DequeueParams = {}): Promise<AttemptedRollout | null> {
    const [rollout] = await this.dequeueManyRollouts({ ...params, limit: 1 });
    return rollout ?? null;
  }

  async dequeueManyRollouts(params: DequeueManyParams = {}): Promise<AttemptedRollout[]> {
    const { workerId, limit } = dequeueRequest(params);
    return this.write(true, async (ops) => {
      const now = this.now();
      const dequeued: AttemptedRollout[] = [];
      while (dequeued.length < limit) {
        const ids = await ops.tables.popQueue(limit - dequeued.length);
        if (ids.length === 0) break;
        for (const rolloutId of ids) {
          const rollout = await ops.tables.getRollout(rolloutId, true);
          // Ids whose rollout left the queuing states while queued are skipped.
          if (!rollout || !isQueuing(rollout.status)) continue;
          dequeued.push(await ops.addAttempt(rollout, workerId, now));
        }
      }
      if (workerId) {
        const last = dequeued.at(-1);
        if (last) await ops.syncWorker(last.attempt, true);
        else {
          const worker = await ops.lockWorker(workerId);
          await ops.tables.putWorker(markWorkerIdleAfterEmptyDequeue(worker, now));
        }
      }
      return dequeued;
    });
  }

  async startAttempt(
    rolloutId: string,
    params: StartAttemptParams = {},
  ): Promise<AttemptedRollout> {
    const workerId = p.optionalString('worker_id', params.worker_id);
    return this.write(true, async (ops) => {
      const rollout = await ops.lockRollout(rolloutId);
      const attempted = await ops.addAttempt(rollout, workerId, this.now());
      if (workerId) await ops.syncWorker(attempted.attempt, false);
      return attempted;
    });
  }

  async queryRollouts(
    params: QueryRolloutsParams = {},
  ): Promise<PaginatedResult<Rollout | AttemptedRollout>> {
    const query = rolloutQuery(params);
    return this.read(true, async (ops) => {
      const page = await ops.tables.queryRollouts(query);
      return paginated(await ops.withLatestAttempts(page.items), page, query);
    });
  }

  async getRolloutById(rolloutId: string): Promise<Rollout | AttemptedRollout | null> {
    return this.read(true, async (ops) => {
      const rollout = await ops.tables.getRollout(rolloutId);
      return rollout ? ((await ops.withLatestAttempts([rollout]))[0] ?? null) : null;
    });
  }

  async updateRollout(rolloutId: string, params: UpdateRolloutParams): Promise<Rollout> {
    const changes = rolloutChanges(params);
    return this.write(true, async (ops) =>
      ops.applyRolloutUpdate(await ops.lockRollout(rolloutId), changes),
    );
  }

  async waitForRollouts(params: WaitForRolloutsParams): Promise<Rollout[]> {
    const { ids, timeout, deadline } = waitRequest(params);
    const finished = new Map<string, Rollout>();
    let pending = [...new Set(ids)];
    if (timeout !== 0 && pending.length > 0) await this.listener.listen();
    for (;;) {
      // Interest is registered before reading, so a finish committed in between still wakes the wait.
      const armed = this.listener.arm(pending);
      pending = await this.read(true, (ops) => ops.collectFinished(pending, finished));
      if (pending.length === 0 || Date.now() >= deadline || this.closed) {
        armed.cancel();
        break;
      }
      await armed.sleep(deadline - Date.now());
    }
    return finishedInOrder(ids, finished);
  }

  // ------------------------------------------------------------------ attempts

  async queryAttempts(
    rolloutId: string,
    params: QueryAttemptsParams = {},
  ): Promise<PaginatedResult<Attempt>> {
    const query = attemptQuery(params);
    return this.read(true, async (ops) => {
      const page = await ops.tables.queryAttempts(rolloutId, query);
      return paginated(page.items, page, query);
    });
  }

  async getLatestAttempt(rolloutId: string): Promise<Attempt | null> {
    return this.read(true, async (ops) => (await ops.tables.getLatestAttempt(rolloutId)) ?? null);
  }

  async updateAttempt(
    rolloutId: string,
    attemptId: string,
    params: UpdateAttemptParams,
  ): Promise<Attempt> {
    const changes = attemptChanges(params);
    return this.write(true, async (ops) => {
      const rollout = await ops.lockRollout(rolloutId);
      const latest = await ops.tables.getLatestAttempt(rolloutId);
      const named =
        attemptId === 'latest' ? undefined : await ops.tables.getAttempt(rolloutId, attemptId);
      const attempt = targetAttempt(rolloutId, attemptId, latest, () => named);
      return ops.applyAttemptUpdate(
        rollout,
        attempt,
        attempt.attempt_id === latest?.attempt_id,
        changes,
      );
    });
  }

  // ------------------------------------------------------------------ resources

  async addResources(resources: NamedResources): Promise<ResourcesUpdate> {
    const parsed = parseNamedResources(resources, 'resources');
    return this.write(false, async (ops) => {
      const update = resourcesRecord(parsed, this.now());
      await ops.tables.putResources(update);
      return update;
    });
  }

  async updateResources(resourcesId: string, resources: NamedResources): Promise<ResourcesUpdate> {
    p.requireString('resources_id', resourcesId);
    const parsed = parseNamedResources(resources, 'resources');
    return this.write(true, async (ops) => {
      const existing = await ops.tables.getResources(resourcesId, true);
      const update = resourcesRecord(parsed, this.now(), { resourcesId, existing });
      await ops.tables.putResources(update);
      return update;
    });
  }

  async getResourcesById(resourcesId: string): Promise<ResourcesUpdate | null> {
    return this.read(false, async (ops) =>
      hydrateResources(await ops.tables.getResources(resourcesId)),
    );
  }

  async getLatestResources(): Promise<ResourcesUpdate | null> {
    return this.read(false, async (ops) => hydrateResources(await ops.tables.getLatestResources()));
  }

  async queryResources(
    params: QueryResourcesParams = {},
  ): Promise<PaginatedResult<ResourcesUpdate>> {
    const query = resourcesQuery(params);
    return this.read(false, async (ops) => {
      const page = await ops.tables.queryResources(query);
      return paginated(
        page.items.map((u) => hydrateResources(u)!),
        page,
        query,
      );
    });
  }

  // ------------------------------------------------------------------ spans

  async addSpan(span: Span): Promise<Span | null> {
    const [stored] = await this.addManySpans([span]);
    return stored ?? null;
  }

  async addManySpans(spans: Span[]): Promise<Span[]> {
    checkSpans(spans);
    if (spans.length === 0) return [];
    return this.write(false, (ops) => ops.insertSpans(spans));
  }

  async addOtelSpan(
    rolloutId: string,
    attemptId: string,
    span: OtelSpanLike,
    sequenceId?: number | null,
  ): Promise<Span | null> {
    checkSequenceId(sequenceId);
    return this.write(false, async (ops) => {
      await ops.lockRollout(rolloutId);
      const seq = sequenceId ?? (await ops.tables.allocateSequenceIds(rolloutId, 1));
      const converted = spanFromOtel(span, rolloutId, attemptId, seq);
      return (await ops.insertSpans([converted]))[0] ?? null;
    });
  }

  async getNextSpanSequenceId(rolloutId: string, _attemptId: string): Promise<number> {
    p.requireString('rollout_id', rolloutId);
    return this.write(false, (ops) => ops.tables.allocateSequenceIds(rolloutId, 1));
  }

  async getManySpanSequenceIds(rolloutAttemptIds: Array<[string, string]>): Promise<number[]> {
    const { rolloutIds, counts } = sequenceIdRequests(rolloutAttemptIds);
    return this.write(false, async (ops) => {
      const first = new Map<string, number>();
      // Counter rows are locked in id order, so two batches over the same rollouts never deadlock.
      for (const id of [...counts.keys()].sort())
        first.set(id, await ops.tables.allocateSequenceIds(id, counts.get(id)!));
      return assignSequenceIds(rolloutIds, first);
    });
  }

  async querySpans(
    rolloutId: string,
    params: QuerySpansParams = {},
  ): Promise<PaginatedResult<Span>> {
    const query = spanQuery(rolloutId, params);
    return this.read(true, async (ops) => {
      if (query.attempt_id === 'latest') {
        const latest = await ops.tables.getLatestAttempt(rolloutId);
        if (!latest) return paginated([], { items: [], total: 0 }, query);
        query.attempt_id = latest.attempt_id;
      }
      const page = await ops.tables.querySpans(query);
      return paginated(page.items, page, query);
    });
  }

  // ------------------------------------------------------------------ workers

  async queryWorkers(params: QueryWorkersParams = {}): Promise<PaginatedResult<Worker>> {
    const query = workerQuery(params);
    return this.read(true, async (ops) => {
      const page = await ops.tables.queryWorkers(query);
      return paginated(page.items, page, query);
    });
  }

  async getWorkerById(workerId: string): Promise<Worker | null> {
    return this.read(false, async (ops) => (await ops.tables.getWorker(workerId)) ?? null);
  }

  async updateWorker(workerId: string, params: UpdateWorkerParams = {}): Promise<Worker> {
    p.requireString('worker_id', workerId);
    const stats = heartbeatStats(params);
    return this.write(false, async (ops) => {
      const worker = workerHeartbeat(await ops.lockWorker(workerId), stats, this.now());
      await ops.tables.putWorker(worker);
      return worker;
    });
  }

  // ------------------------------------------------------------------ internals

  /**
   * Runs a mutating call as one transaction (retried from the start on a deadlock); `scan` runs the watchdog
   * first. Rollouts finished by the transaction are announced with NOTIFY (delivered on commit) and woken
   * locally right after the commit.
   */
  private async write<T>(scan: boolean, fn: (ops: Operations) => Promise<T>): Promise<T> {
    this.ensureOpen();
    if (scan) await this.scanForUnhealthyRollouts();
    const { result, finished } = await this.transaction('BEGIN', async (client) => {
      const ops = new Operations(new Tables(client), this.now);
      const value = await fn(ops);
      for (const payload of finishedPayloads(this.schema, ops.finished))
        await client.query('SELECT pg_notify($1, $2)', [FINISHED_CHANNEL, payload]);
      return { result: value, finished: ops.finished };
    });
    if (finished.length > 0) this.listener.notify(finished);
    return result;
  }

  /** Runs reads against one consistent snapshot (a read-only repeatable-read transaction). */
  private async read<T>(scan: boolean, fn: (ops: Operations) => Promise<T>): Promise<T> {
    this.ensureOpen();
    if (scan) await this.scanForUnhealthyRollouts();
    return this.transaction('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY', (client) =>
      fn(new Operations(new Tables(client), this.now)),
    );
  }

  private async transaction<T>(
    begin: string,
    fn: (client: pg.PoolClient) => Promise<T>,
  ): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const client = await this.pool.connect();
      let broken = false;
      try {
        await client.query(begin);
        const result = await fn(client);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {
          broken = true;
        });
        const code = (error as { code?: string }).code;
        if (!(code && RETRYABLE.has(code) && attempt < MAX_ATTEMPTS)) throw error;
      } finally {
        client.release(broken);
      }
    }
  }

  private ensureOpen(): void {
    if (this.closed) throw new StoreClosedError('the store is closed');
  }

  /**
   * The lazy, debounced watchdog. The debounce is shared by every process over the schema (the `watchdog`
   * row); a process that finds the row locked leaves the scan to its holder. Each transition happens once:
   * the scan re-reads every rollout under its row lock before changing it.
   */
  private async scanForUnhealthyRollouts(): Promise<void> {
    const now = this.now();
    if (this.debounceSeconds > 0 && now - this.lastScanTime < this.debounceSeconds) return;
    if (this.scanning) return this.scanning;
    this.lastScanTime = now;
    this.scanning = this.scanOnce(now).finally(() => {
      this.scanning = null;
    });
    return this.scanning;
  }

  private async scanOnce(now: number): Promise<void> {
    const { finished } = await this.transaction('BEGIN', async (client) => {
      const ops = new Operations(new Tables(client), this.now);
      const { rows } = await client.query<{ last_scan: number }>(
        'SELECT last_scan FROM watchdog FOR UPDATE SKIP LOCKED',
      );
      const last = rows[0]?.last_scan;
      if (last === undefined || (this.debounceSeconds > 0 && now - last < this.debounceSeconds))
        return { finished: [] };
      await client.query('UPDATE watchdog SET last_scan = $1', [now]);
      await ops.scanUnhealthyRollouts(now);
      for (const payload of finishedPayloads(this.schema, ops.finished))
        await client.query('SELECT pg_notify($1, $2)', [FINISHED_CHANNEL, payload]);
      return { finished: ops.finished };
    });
    if (finished.length > 0) this.listener.notify(finished);
  }
}

/** The URL without its password, for messages. */
export function redact(url: string): string {
  return url.replace(/(\/\/[^:/@]*:)[^@]*@/, '$1***@');
}
