import { resolve } from 'node:path';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { StoreClosedError, StoreError } from '@arclight/core';

/** How hard SQLite works to make a commit durable (`PRAGMA synchronous`). */
export type SqliteSynchronous = 'full' | 'normal';

export interface SqliteConnectionOptions {
  /** File path, or `':memory:'` for a private in-memory database. */
  path: string;
  /**
   * `'normal'` (default, SQLite's recommendation for WAL): an acknowledged commit survives a process crash
   * (kill -9); the last commits before a power loss or OS crash may be lost, the database stays consistent.
   * `'full'`: every commit is also fsynced, so it survives a power loss too — at several times the cost per write.
   */
  synchronous?: SqliteSynchronous;
  /** How long a write waits for another connection (e.g. another process) to release the lock. Default 5000. */
  busyTimeoutMs?: number;
  /** Open the file read-only: every write fails; the schema is not migrated (it must be current). */
  readOnly?: boolean;
  /**
   * Group commit (default false): the outermost `transaction` calls of one event-loop turn share one SQLite
   * transaction, committed once at the end of the turn (`setImmediate`), or up to MAX_GROUP_EXTENSIONS turns
   * later while each turn adds writes; `pendingCommit()` is the promise of that commit, which callers await
   * before they acknowledge anything. Off while another connection of this process has the same file open (it
   * would wait for a lock this process holds).
   */
  groupCommit?: boolean;
}

interface CommitGroup {
  committed: Promise<void>;
  resolve(): void;
  reject(error: unknown): void;
  /** Outermost transactions that joined the group since its last end of turn. */
  joined: number;
  /** Turns the group has been kept open beyond its first. */
  extended: number;
}

/**
 * How many more event-loop turns a group stays open while writes keep joining it. Under load each extra turn
 * reads the requests that arrived meanwhile into the same commit (the group closes as soon as a turn adds
 * nothing, e.g. when every client waits for it); a lone writer commits at the end of its own turn as before.
 */
const MAX_GROUP_EXTENSIONS = 3;

/**
 * Writable connections of this process, by absolute path (group commit is off while a file has two). Read-only
 * ones are left out: a WAL reader never waits for the write lock a pending group holds.
 */
const openFiles = new Map<string, Set<SqliteConnection>>();

const MAX_CACHED_STATEMENTS = 512;

/** SQLite's answers to a ROLLBACK after it rolled the transaction back itself. */
const NOTHING_TO_UNDO = /no transaction is active|no such savepoint/;

/**
 * One `DatabaseSync` with the PRAGMAs Arclight needs, a prepared-statement cache keyed by SQL text and
 * transactions that nest (an inner call joins the outer transaction through a savepoint).
 */
export class SqliteConnection {
  readonly path: string;
  private readonly db: DatabaseSync;
  private readonly statements = new Map<string, StatementSync>();
  private depth = 0;
  private closed = false;
  private undone = 0;
  private readonly groupCommit: boolean;
  private readonly fileKey: string | undefined;
  private group: CommitGroup | undefined;

  constructor(options: SqliteConnectionOptions) {
    const synchronous = options.synchronous ?? 'normal';
    if (synchronous !== 'full' && synchronous !== 'normal') {
      throw new StoreError(
        `SqliteBackend: synchronous must be 'full' or 'normal', got ${String(synchronous)}`,
      );
    }
    const busyTimeoutMs = options.busyTimeoutMs ?? 5000;
    if (!Number.isInteger(busyTimeoutMs) || busyTimeoutMs < 0) {
      throw new StoreError(
        `SqliteBackend: busyTimeoutMs must be a non-negative integer, got ${busyTimeoutMs}`,
      );
    }
    this.path = options.path;
    this.groupCommit = options.groupCommit === true && options.readOnly !== true;
    this.fileKey =
      options.path === ':memory:' || options.readOnly === true ? undefined : resolve(options.path);
    // Another connection of this process to the same file commits its open group first: opening or writing
    // here must not wait for a lock that only this process's next turn would release.
    const siblings = this.fileKey === undefined ? undefined : openFiles.get(this.fileKey);
    for (const sibling of siblings ?? []) sibling.commitGroup();
    try {
      // Referential integrity is enforced above the backend (as for every backend), so no foreign keys.
      this.db = new (nodeSqlite().DatabaseSync)(options.path, {
        timeout: busyTimeoutMs,
        enableForeignKeyConstraints: false,
        readOnly: options.readOnly === true,
      });
    } catch (error) {
      throw new StoreError(
        `SqliteBackend: cannot open database ${options.path}: ${(error as Error).message}`,
        {
          cause: error,
        },
      );
    }
    try {
      this.db.exec(`PRAGMA busy_timeout = ${busyTimeoutMs}`);
      // WAL: readers never block the writer and a commit is one append (falls back to 'memory' for :memory:).
      // The mode is stored in the file, so a read-only connection keeps whatever the writer set.
      if (options.readOnly !== true) this.db.exec('PRAGMA journal_mode = WAL');
      this.db.exec(`PRAGMA synchronous = ${synchronous.toUpperCase()}`);
      this.db.exec('PRAGMA temp_store = MEMORY');
      this.db.exec('PRAGMA cache_size = -32768'); // 32 MiB page cache
      // Checkpoint every 8192 pages (32 MiB) instead of SQLite's 1000: a checkpoint syncs the database file,
      // and with many small transactions (a rollout lifecycle is four) it dominated the cost of a commit.
      this.db.exec('PRAGMA wal_autocheckpoint = 8192');
      this.db.exec('PRAGMA journal_size_limit = 67108864'); // truncate the WAL back to 64 MiB after checkpoints
      if (this.fileKey !== undefined) {
        if (siblings) siblings.add(this);
        else openFiles.set(this.fileKey, new Set([this]));
      }
    } catch (error) {
      this.db.close();
      throw new StoreError(
        `SqliteBackend: cannot configure database ${options.path}: ${(error as Error).message}`,
        {
          cause: error,
        },
      );
    }
  }

  /** The raw handle, for the migration runner. */
  get handle(): DatabaseSync {
    this.ensureOpen();
    return this.db;
  }

  /**
   * How many rollbacks (of a transaction or a savepoint) this connection has made: writes undone after a read saw
   * them change the data back without adding to `total_changes()` (see seek-order.ts).
   */
  get undoCount(): number {
    return this.undone;
  }

  get inTransaction(): boolean {
    return this.depth > 0;
  }

  /** The prepared statement for `sql`, prepared once per connection. */
  prepare(sql: string): StatementSync {
    this.ensureOpen();
    let statement = this.statements.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare(sql);
      if (this.statements.size >= MAX_CACHED_STATEMENTS) {
        const oldest = this.statements.keys().next().value;
        if (oldest !== undefined) this.statements.delete(oldest);
      }
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /**
   * Runs `fn` atomically. The outermost call holds `BEGIN IMMEDIATE` (the write lock, taken up front so two
   * processes never deadlock upgrading a read lock); nested calls join it through a savepoint, so an inner
   * failure that the caller catches undoes only the inner writes.
   */
  transaction<T>(fn: () => T): T {
    if (this.depth > 0) return this.nested(fn);
    this.prepare('BEGIN IMMEDIATE').run();
    this.depth = 1;
    const grouped = this.grouping();
    try {
      const result = fn();
      assertSynchronous(result);
      if (grouped) this.openGroup();
      else this.prepare('COMMIT').run();
      return result;
    } catch (error) {
      this.undo('ROLLBACK');
      throw error;
    } finally {
      if (this.group === undefined) this.depth = 0;
    }
  }

  /**
   * Runs `fn` atomically with the fewest statements: inside the open transaction as it is (whoever opened it
   * undoes `fn`'s writes with the rest when `fn` throws), else in a transaction of its own. For writes whose
   * failure is never caught and recovered from between the two.
   */
  atomic<T>(fn: () => T): T {
    return this.depth > 0 ? fn() : this.transaction(fn);
  }

  /**
   * With group commit: the promise of the open group's commit (every write and read made since the turn's
   * first write is part of it), or undefined when no group is open. It rejects when the commit fails, and
   * then nothing of the group is stored.
   */
  pendingCommit(): Promise<void> | undefined {
    return this.group?.committed;
  }

  /** Commits the open group now (at the end of the turn, before closing, before a sibling connection opens). */
  commitGroup(): void {
    const group = this.group;
    if (group === undefined) return;
    this.group = undefined;
    try {
      this.prepare('COMMIT').run();
      group.resolve();
    } catch (error) {
      this.undo('ROLLBACK');
      group.reject(
        new StoreError(
          `SqliteBackend: commit failed, nothing of it was stored: ${(error as Error).message}`,
          {
            cause: error,
          },
        ),
      );
    } finally {
      this.depth = 0;
    }
  }

  private grouping(): boolean {
    return (
      this.groupCommit &&
      (this.fileKey === undefined || (openFiles.get(this.fileKey)?.size ?? 0) <= 1)
    );
  }

  private openGroup(): void {
    let resolveGroup!: () => void;
    let rejectGroup!: (error: unknown) => void;
    const committed = new Promise<void>((resolved, rejected) => {
      resolveGroup = resolved;
      rejectGroup = rejected;
    });
    // Every caller awaits it; this keeps a failed commit nobody waits for from being an unhandled rejection.
    committed.catch(() => {});
    const group = { committed, resolve: resolveGroup, reject: rejectGroup, joined: 0, extended: 0 };
    this.group = group;
    setImmediate(this.endOfTurn, group);
  }

  /** Commits `group` at the end of a turn, unless writes joined it during the turn (see MAX_GROUP_EXTENSIONS). */
  private readonly endOfTurn = (group: CommitGroup): void => {
    if (this.group !== group) return; // committed early (close, a sibling connection)
    if (group.joined > 0 && group.extended < MAX_GROUP_EXTENSIONS) {
      group.joined = 0;
      group.extended += 1;
      setImmediate(this.endOfTurn, group);
      return;
    }
    this.commitGroup();
  };

  /**
   * Runs the reads in `fn` against one snapshot (a deferred transaction that never writes), or inside the
   * current transaction if there is one.
   */
  snapshot<T>(fn: () => T): T {
    if (this.depth > 0) return fn();
    this.prepare('BEGIN DEFERRED').run();
    this.depth = 1;
    try {
      const result = fn();
      this.prepare('COMMIT').run();
      return result;
    } catch (error) {
      this.undo('ROLLBACK');
      throw error;
    } finally {
      this.depth = 0;
    }
  }

  close(): void {
    if (this.closed) return;
    this.commitGroup();
    if (this.fileKey !== undefined) {
      const connections = openFiles.get(this.fileKey);
      connections?.delete(this);
      if (connections?.size === 0) openFiles.delete(this.fileKey);
    }
    this.closed = true;
    this.statements.clear();
    try {
      this.undo('ROLLBACK', true);
      this.db.exec('PRAGMA optimize'); // refreshes planner statistics when they are stale; cheap otherwise
    } catch {
      // Best effort: the connection is closed below either way.
    } finally {
      this.db.close();
    }
  }

  private nested<T>(fn: () => T): T {
    if (this.depth === 1 && this.group !== undefined) this.group.joined += 1;
    const savepoint = `arclight_sp${this.depth}`;
    this.prepare(`SAVEPOINT ${savepoint}`).run();
    this.depth += 1;
    try {
      const result = fn();
      assertSynchronous(result);
      this.prepare(`RELEASE ${savepoint}`).run();
      return result;
    } catch (error) {
      this.undo(`ROLLBACK TO ${savepoint}; RELEASE ${savepoint}`);
      throw error;
    } finally {
      this.depth -= 1;
    }
  }

  /**
   * Undoes the open transaction (`ROLLBACK`) or savepoint after a failure, unless SQLite has ended the
   * transaction itself (it does on some errors). `DatabaseSync.isTransaction` tells which on Node ≥ 22.16; on
   * Node 22.13–22.15 it does not exist, so the rollback is tried and "no transaction" answers are ignored.
   * `closing`: also after close() marked the connection closed.
   */
  private undo(sql: string, closing = false): void {
    if (
      (this.closed && !closing) ||
      (this.db as { isTransaction?: boolean }).isTransaction === false
    ) {
      return;
    }
    this.undone += 1;
    try {
      this.db.exec(sql);
    } catch (error) {
      if (!NOTHING_TO_UNDO.test((error as Error).message)) throw error;
    }
  }

  private ensureOpen(): void {
    if (this.closed) throw new StoreClosedError(`SqliteBackend: database ${this.path} is closed`);
  }
}

function assertSynchronous(result: unknown): void {
  if (typeof (result as { then?: unknown } | null)?.then === 'function') {
    throw new StoreError(
      'SqliteBackend.transaction: the callback must be synchronous (it returned a promise)',
    );
  }
}

/**
 * `node:sqlite`, loaded on first use: only a SQLite store needs it, so importing `@arclight/store` for the
 * in-memory store (or `@arclight/client`, which imports the store's types) never loads it.
 */
function nodeSqlite(): typeof import('node:sqlite') {
  // Node 22 prints "ExperimentalWarning: SQLite is an experimental feature" on the first load: that is about
  // node:sqlite's API, which this module pins down, not something the application can act on.
  const emitWarning = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    if (!String(warning).startsWith('SQLite is an experimental feature')) {
      (emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest);
    }
  }) as typeof process.emitWarning;
  try {
    return process.getBuiltinModule('node:sqlite');
  } finally {
    process.emitWarning = emitWarning;
  }
}
