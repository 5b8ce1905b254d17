import type { DatabaseSync } from 'node:sqlite';
import { StoreError } from '@arclight/core';
import type { SqliteConnection } from './connection.js';
import { SCHEMA_V1 } from './schema-v1.js';

/** One schema step. `up` runs inside a write transaction together with the version bump. */
export interface Migration {
  /** The schema version after this migration; versions are consecutive from 1. */
  version: number;
  description: string;
  up(db: DatabaseSync): void;
  /**
   * True when code of this version still reads a file of the previous version correctly (the step only drops or
   * adds indexes), so a read-only store may open such a file without migrating it.
   */
  readCompatible?: boolean;
}

/** Every migration, oldest first. Append new ones; never edit a released one. */
export const MIGRATIONS: readonly Migration[] = [
  { version: 1, description: 'initial schema', up: (db) => db.exec(SCHEMA_V1) },
  {
    // spans_by_sequence (rollout_id, attempt_id, sequence_id) served no query the UNIQUE (rollout_id, attempt_id,
    // span_id) index does not (pages sort by pk or sort_by either way), and every span insert paid for it.
    version: 2,
    description: 'drop the redundant spans_by_sequence index',
    up: (db) => db.exec('DROP INDEX IF EXISTS spans_by_sequence'),
    readCompatible: true,
  },
  {
    // Pages of rollouts by start time (an export, the dashboard) sorted the whole table for every page, and an
    // OFFSET deep into it kept offset + limit rows in the sorter: paging through 100,000 rollouts took minutes.
    // The index serves `ORDER BY (start_time IS NULL), start_time, pk` (the rowid ends every index) as it is.
    version: 3,
    description: 'index rollouts by start time',
    up: (db) =>
      db.exec(
        'CREATE INDEX IF NOT EXISTS rollouts_by_start_time ON rollouts ((start_time IS NULL), start_time)',
      ),
    readCompatible: true,
  },
  {
    // A page of rollouts of one status in start-time order (the dashboard's status filter) sorted every rollout of
    // that status: 200,000 rollouts of one status, 293 ms a page. The status index becomes (status, start time), so
    // such a page reads its rows in order from the index; lookups and counts by status use its prefix as before,
    // and a status change still updates one index entry.
    version: 4,
    description: 'index rollouts by status and start time',
    up: (db) =>
      db.exec(
        'CREATE INDEX IF NOT EXISTS rollouts_by_status_start ON rollouts (status, (start_time IS NULL), start_time);' +
          'DROP INDEX IF EXISTS rollouts_by_status',
      ),
    readCompatible: true,
  },
];

/** The schema version this code writes. */
export const SCHEMA_VERSION: number = MIGRATIONS.length;

/** The oldest schema version this code reads as it is (a read-only store cannot migrate). */
export const OLDEST_READABLE_VERSION: number =
  MIGRATIONS.findLast((migration) => migration.readCompatible !== true)?.version ?? 1;

/** Whether a read-only store can serve a file of schema `version` without migrating it. */
export function readableWithoutMigrating(version: number): boolean {
  return version >= OLDEST_READABLE_VERSION && version <= SCHEMA_VERSION;
}

const CREATE_HISTORY = `CREATE TABLE IF NOT EXISTS schema_migrations (
  version INTEGER PRIMARY KEY,
  description TEXT NOT NULL,
  applied_at TEXT NOT NULL
)`;

/**
 * Brings the database up to the newest of `migrations`. The version lives in `PRAGMA user_version`
 * (changed atomically with the migration) and each applied step is recorded in `schema_migrations`.
 * Each step is its own `BEGIN IMMEDIATE` transaction that re-reads the version first, so several processes
 * opening the same fresh file migrate it exactly once. Returns the resulting version.
 *
 * @throws StoreError when the database is newer than the code (it was written by a newer Arclight).
 */
export function migrate(
  connection: SqliteConnection,
  migrations: readonly Migration[] = MIGRATIONS,
): number {
  checkOrdered(migrations);
  const latest = migrations.length;
  const ensureNotNewer = (version: number): void => {
    if (version > latest) {
      throw new StoreError(
        `SqliteBackend: database ${connection.path} has schema version ${version}, but this Arclight only knows ` +
          `versions up to ${latest}; open it with a newer Arclight or use another file`,
      );
    }
  };
  let version = userVersion(connection);
  ensureNotNewer(version);
  for (const migration of migrations) {
    if (migration.version <= version) continue;
    version = connection.transaction(() => {
      const current = userVersion(connection);
      ensureNotNewer(current);
      if (current >= migration.version) return current;
      const db = connection.handle;
      try {
        migration.up(db);
      } catch (error) {
        throw new StoreError(
          `SqliteBackend: migration to schema version ${migration.version} (${migration.description}) failed: ` +
            `${(error as Error).message}`,
          { cause: error },
        );
      }
      db.exec(CREATE_HISTORY);
      db.prepare(
        'INSERT INTO schema_migrations (version, description, applied_at) VALUES (?, ?, ?)',
      ).run(migration.version, migration.description, new Date().toISOString());
      db.exec(`PRAGMA user_version = ${migration.version}`);
      return migration.version;
    });
  }
  return version;
}

/** The schema version stored in the database file (0 for a fresh file). */
export function userVersion(connection: SqliteConnection): number {
  const row = connection.handle.prepare('PRAGMA user_version').get();
  return Number(row?.user_version ?? 0);
}

function checkOrdered(migrations: readonly Migration[]): void {
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1) {
      throw new StoreError(
        `SqliteBackend: migration #${index} has version ${migration.version}; versions must be 1, 2, 3, … in order`,
      );
    }
  });
}
