import { StoreError } from '@arclight/core';
import type { PoolClient } from 'pg';
import { SCHEMA_V1 } from './schema-v1.js';

/** One schema step; `up` runs in the same transaction as the version bump. */
export interface Migration {
  /** The schema version after this migration; versions are consecutive from 1. */
  version: number;
  description: string;
  sql: string;
}

/** Every migration, oldest first. Append new ones; never edit a released one. */
export const MIGRATIONS: readonly Migration[] = [
  { version: 1, description: 'initial schema', sql: SCHEMA_V1 },
  {
    // Pages of rollouts by start time (an export, the dashboard) sorted the whole table for every page; the index
    // has the ORDER BY's expression and tie-breaker, so a page reads the index in order instead.
    version: 2,
    description: 'index rollouts by start time',
    sql: "CREATE INDEX IF NOT EXISTS rollouts_start_time ON rollouts ((coalesce(start_time, 'Infinity'::float8)), ord)",
  },
];

/** The schema version this code writes. */
export const SCHEMA_VERSION: number = MIGRATIONS.length;

/** A PostgreSQL identifier, quoted. Schema names are restricted so that they are also safe in messages. */
export function quoteSchema(schema: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(schema)) {
    throw new StoreError(
      `PostgresLightningStore: schema ${JSON.stringify(schema)} must be 1-63 letters, digits or _ (not starting with a digit)`,
    );
  }
  return `"${schema}"`;
}

/**
 * Brings `schema` up to the newest migration. Several processes may start at once: a transaction-scoped
 * advisory lock keyed by the schema name serializes them, and each re-reads the version under the lock, so
 * every step runs exactly once. The applied versions are recorded in `<schema>.schema_migrations`.
 *
 * @throws StoreError when the schema is newer than this code.
 */
export async function migrate(client: PoolClient, schema: string): Promise<number> {
  const q = quoteSchema(schema);
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [
      `arclight-migrate:${schema}`,
    ]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${q}`);
    await client.query(`CREATE TABLE IF NOT EXISTS ${q}.schema_migrations (
      version integer PRIMARY KEY,
      description text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const { rows } = await client.query<{ version: number | null }>(
      `SELECT max(version) AS version FROM ${q}.schema_migrations`,
    );
    const current = rows[0]?.version ?? 0;
    if (current > SCHEMA_VERSION) {
      throw new StoreError(
        `PostgresLightningStore: schema ${schema} has version ${current}, but this Arclight only knows versions ` +
          `up to ${SCHEMA_VERSION}; use a newer Arclight or another schema (--schema)`,
      );
    }
    await client.query(`SET LOCAL search_path TO ${q}`);
    for (const migration of MIGRATIONS) {
      if (migration.version <= current) continue;
      await client.query(migration.sql);
      await client.query(
        `INSERT INTO ${q}.schema_migrations (version, description) VALUES ($1, $2)`,
        [migration.version, migration.description],
      );
    }
    await client.query('COMMIT');
    return SCHEMA_VERSION;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
