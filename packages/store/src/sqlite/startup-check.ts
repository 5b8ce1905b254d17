import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { StoreError } from '@arclight/core';
import { readableWithoutMigrating, SCHEMA_VERSION } from './migrations.js';

export interface SqliteStartupCheckOptions {
  /** The store will be served read-only: the file must exist with the current schema; writability is not needed. */
  readOnly?: boolean;
}

/** node:sqlite, loaded only when a check runs (importing the store must not require it). */
const sqlite = (): typeof import('node:sqlite') =>
  process.getBuiltinModule('node:sqlite') as typeof import('node:sqlite');

/** Tables every Arclight schema has; a file at schema version ≥ 1 without them is not an Arclight store. */
const REQUIRED_TABLES = ['rollouts', 'attempts', 'spans', 'resources', 'workers'];

/** Lines of `quick_check` output quoted in the error. */
const QUICK_CHECK_LINES = 5;

/**
 * Checks a SQLite store file before a server serves it, so a broken file is refused at startup with a message
 * saying what is wrong and what to do, instead of answering 500s (or serving an empty store) later:
 * - a file that exists but is 0 bytes (truncated) is refused — SQLite would silently treat it as a new, empty
 *   database;
 * - the file must be a SQLite database that passes `PRAGMA quick_check` (catches zeroed or garbled pages);
 * - its schema version must be one this Arclight knows, and a file with a version must have the store's tables;
 * - unless `readOnly`, the file and its directory (for the `-wal`/`-shm` files) must be writable, proven by
 *   taking the write lock; with `readOnly` the file must exist and be at the current schema version.
 * A missing file is fine (unless `readOnly`): it will be created.
 *
 * @throws StoreError naming the file and the problem.
 */
export function checkSqliteStartup(path: string, options: SqliteStartupCheckOptions = {}): void {
  if (path === ':memory:') return;
  if (!existsSync(path)) {
    if (options.readOnly) {
      throw new StoreError(`database ${path} does not exist (nothing to serve read-only)`);
    }
    return;
  }
  const stat = statSync(path);
  if (!stat.isFile()) throw new StoreError(`database ${path} is not a regular file`);
  if (stat.size === 0) {
    throw new StoreError(
      `database ${path} is empty (0 bytes): the file was probably truncated, and opening it would serve an ` +
        'empty store. Restore it from a backup, or delete it (or pick another --db) to start a new store',
    );
  }
  let db: DatabaseSync;
  try {
    db = new (sqlite().DatabaseSync)(path, { readOnly: true });
  } catch (error) {
    throw new StoreError(`cannot open database ${path}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  try {
    checkIntegrity(db, path);
    checkSchema(db, path, options);
  } finally {
    db.close();
  }
  if (!options.readOnly) checkWritable(path);
}

function checkIntegrity(db: DatabaseSync, path: string): void {
  let problems: string[];
  try {
    problems = db
      .prepare('PRAGMA quick_check')
      .all()
      .map((row) => String(Object.values(row)[0]));
  } catch (error) {
    throw new StoreError(
      `database ${path} is corrupt or not a SQLite database: ${(error as Error).message}. ` +
        'Restore it from a backup, or pick another --db',
      { cause: error },
    );
  }
  if (problems.length === 1 && problems[0] === 'ok') return;
  const shown = problems.slice(0, QUICK_CHECK_LINES).join('; ');
  const more =
    problems.length > QUICK_CHECK_LINES ? ` (+${problems.length - QUICK_CHECK_LINES} more)` : '';
  throw new StoreError(
    `database ${path} is corrupt (PRAGMA quick_check: ${shown}${more}). Restore it from a backup, or try ` +
      `"sqlite3 ${path} .recover" into a new file`,
  );
}

function checkSchema(db: DatabaseSync, path: string, options: SqliteStartupCheckOptions): void {
  const version = Number(db.prepare('PRAGMA user_version').get()?.user_version ?? 0);
  if (version > SCHEMA_VERSION) {
    throw new StoreError(
      `database ${path} has schema version ${version}, but this Arclight only knows versions up to ` +
        `${SCHEMA_VERSION}; open it with a newer Arclight or use another file`,
    );
  }
  const tables = new Set(
    db
      .prepare("SELECT name FROM sqlite_schema WHERE type = 'table'")
      .all()
      .map((row) => String(row.name)),
  );
  if (version === 0) {
    if (tables.size > 0) {
      throw new StoreError(
        `database ${path} is a SQLite database but not an Arclight store (it has tables ` +
          `${[...tables].slice(0, 5).join(', ')} and no Arclight schema version); pick another --db`,
      );
    }
    if (options.readOnly) {
      throw new StoreError(
        `database ${path} has no Arclight schema yet (nothing to serve read-only)`,
      );
    }
    return;
  }
  const missing = REQUIRED_TABLES.filter((table) => !tables.has(table));
  if (missing.length > 0) {
    throw new StoreError(
      `database ${path} says schema version ${version} but lacks the tables ${missing.join(', ')}; ` +
        'it is damaged or not an Arclight store',
    );
  }
  if (options.readOnly && !readableWithoutMigrating(version)) {
    throw new StoreError(
      `database ${path} has schema version ${version} and needs migrating to ${SCHEMA_VERSION}, which a ` +
        'read-only server cannot do; start it once without --read-only',
    );
  }
}

function checkWritable(path: string): void {
  for (const [target, what] of [
    [path, 'file'],
    [dirname(path), 'directory (SQLite writes its -wal and -shm files there)'],
  ] as const) {
    try {
      accessSync(target, constants.W_OK);
    } catch {
      throw new StoreError(
        `database ${what} ${target} is not writable by this process. Fix its permissions, or serve it with ` +
          '--read-only',
      );
    }
  }
  // Permission bits are not the whole story (read-only mounts, immutable files): take the write lock for real.
  let db: DatabaseSync | undefined;
  try {
    db = new (sqlite().DatabaseSync)(path);
    db.exec('BEGIN IMMEDIATE');
    const version = Number(db.prepare('PRAGMA user_version').get()?.user_version ?? 0);
    db.exec(`PRAGMA user_version = ${version}`);
    db.exec('ROLLBACK');
  } catch (error) {
    throw new StoreError(
      `database ${path} cannot be written: ${(error as Error).message}. Fix its permissions or mount, or ` +
        'serve it with --read-only',
      { cause: error },
    );
  } finally {
    db?.close();
  }
}
