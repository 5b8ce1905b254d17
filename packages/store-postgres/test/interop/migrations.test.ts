import { createTestDatabase, type TestDatabase } from '@arclight/test-fixtures/postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresLightningStore } from '../../src/index.js';
import { MIGRATIONS } from '../../src/migrations.js';
import { orderBy, ROLLOUTS } from '../../src/sql-query.js';
import { freshSchema } from './support/schemas.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase('migrations');
});
afterAll(async () => {
  await db?.drop();
});

describe('PostgresLightningStore schema', () => {
  it('records every migration and pages rollouts by start time from an index in either direction', async () => {
    const schema = freshSchema();
    const store = await PostgresLightningStore.open({ connectionString: db.url, schema });
    await store.enqueueManyRollouts([{ input: 1 }, { input: 2 }]);
    await store.close();

    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      const versions = await client.query(
        `SELECT version FROM "${schema}".schema_migrations ORDER BY version`,
      );
      expect(versions.rows.map((row) => row.version)).toEqual(MIGRATIONS.map((m) => m.version));
      await client.query(`SET search_path TO "${schema}"`);
      // With sorting priced out, a plan without a Sort node proves the index yields the pages' order itself
      // (descending, ties stay in insertion order: an incremental sort within ties is the most it may add).
      await client.query('SET enable_sort = off');
      const plan = async (order: 'asc' | 'desc') => {
        const sql = `SELECT doc FROM rollouts${orderBy(ROLLOUTS, 'start_time', order)} LIMIT 100 OFFSET 5000`;
        const { rows } = await client.query(`EXPLAIN ${sql}`);
        return rows.map((row) => String(row['QUERY PLAN'])).join('\n');
      };
      const ascending = await plan('asc');
      expect(ascending).toContain('Index Scan using rollouts_start_time');
      expect(ascending).not.toMatch(/Sort/);
      const descending = await plan('desc');
      expect(descending).toContain('rollouts_start_time');
      expect(descending).not.toMatch(/^\s*->\s*Sort\b/m);
    } finally {
      await client.end();
    }
  });
});
