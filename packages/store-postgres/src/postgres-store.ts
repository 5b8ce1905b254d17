import { StoreError } from '@arclight/core';
import {
  type ArmedWait,
  type Awaitable,
  type BackendCounts,
  BaseLightningStore,
  type LightningStoreCapabilities,
  PageEnds,
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
export class PostgresLightningStore extends BaseLightningStore<Operations> {
  readonly capabilities: LightningStoreCapabilities = {
    thread_safe: true,
    async_safe: true,
    zero_copy: false,
    otlp_traces: false,
  };

  readonly schema: string;
  private readonly pool: pg.Pool;
  private scanning: Promise<void> | null = null;
  private readonly listener: FinishedListener;
  /** Where recent full pages ended, so that the next page of a query need not step over OFFSET rows. */
  private readonly pageEnds = new PageEnds();

  private constructor(options: PostgresStoreOptions) {
    super(options);
    this.schema = options.schema ?? 'arclight';
    const config: pg.ClientConfig = {
      connectionString: options.connectionString,
      options: `-c search_path=${quoteSchema(this.schema)}`,
      application_name: 'arclight-store',
    };
    this.pool = new pg.Pool({ ...config, max: options.poolSize ?? 10 });
    // An idle connection that breaks is dropped by the pool; without a listener the error would crash the process.
    this.pool.on('error', () => undefined);
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

  // ------------------------------------------------------------------ storage

  protected override counts(): Promise<BackendCounts> {
    return new Tables(this.pool).counts();
  }

  protected override async release(): Promise<void> {
    await this.listener.close();
    await this.scanning?.catch(() => undefined);
    await this.pool.end();
  }

  protected override prepareWait(): Promise<void> {
    return this.listener.listen();
  }

  protected override armWait(rolloutIds: readonly string[]): ArmedWait {
    return this.listener.arm(rolloutIds);
  }

  // ------------------------------------------------------------------ internals

  /**
   * Runs a mutating call as one transaction (retried from the start on a deadlock); `scan` runs the watchdog
   * first. Rollouts finished by the transaction are announced with NOTIFY (delivered on commit) and woken
   * locally right after the commit.
   */
  protected override async write<T>(
    scan: boolean,
    fn: (ops: Operations) => Awaitable<T>,
  ): Promise<T> {
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
  protected override async read<T>(
    scan: boolean,
    fn: (ops: Operations) => Awaitable<T>,
  ): Promise<T> {
    this.ensureOpen();
    if (scan) await this.scanForUnhealthyRollouts();
    return this.transaction('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY', async (client) =>
      fn(new Operations(new Tables(client, this.pageEnds), this.now)),
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

  /**
   * The lazy, debounced watchdog. The debounce is shared by every process over the schema (the `watchdog`
   * row); a process that finds the row locked leaves the scan to its holder. Each transition happens once:
   * the scan re-reads every rollout under its row lock before changing it.
   */
  private async scanForUnhealthyRollouts(): Promise<void> {
    const now = this.now();
    if (!this.scanDue(now)) return;
    if (this.scanning) return this.scanning;
    this.scanStarted(now);
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
