import { describeLightningStoreConformance } from '@arclight/store/testing';
import { createTestDatabase, type TestDatabase } from '@arclight/test-fixtures/postgres';
import { afterAll, beforeAll } from 'vitest';
import { PostgresLightningStore } from '../../src/index.js';
import { emptySchema } from './support/schemas.js';

/**
 * The LightningStore conformance suite on PostgresLightningStore, in-process. Every case gets an empty store:
 * the schema is emptied before each store is opened on it.
 */
let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase('conformance');
});
afterAll(async () => {
  await db?.drop();
});

describeLightningStoreConformance({
  name: 'PostgresLightningStore',
  create: async ({ clock, scanDebounceSeconds }) => {
    await emptySchema(db.url, 'conformance');
    return PostgresLightningStore.open({
      connectionString: db.url,
      schema: 'conformance',
      poolSize: 4,
      clock,
      scanDebounceSeconds,
    });
  },
});
