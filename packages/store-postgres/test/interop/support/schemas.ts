import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** A fresh schema name, for a store that starts empty in a shared database. */
export const freshSchema = (): string => `s_${randomBytes(5).toString('hex')}`;

const TABLES = 'rollouts, rollout_queue, attempts, spans, span_sequences, resources, workers';

/**
 * Empties a store's schema (when it exists) so that the next store opened on it starts empty — much
 * cheaper than creating and migrating a new schema for each of the conformance suite's cases.
 */
export async function emptySchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
    if (rows.length === 0) return;
    await client.query(`TRUNCATE ${TABLES.replace(/(\w+)/g, `"${schema}".$1`)} RESTART IDENTITY`);
    await client.query(`UPDATE "${schema}".watchdog SET last_scan = '-Infinity'`);
  } finally {
    await client.end();
  }
}
