import { LightningStoreClient } from '@arclight/client';
import { createLightningStoreServer } from '@arclight/server';
import { describeLightningStoreConformance } from '@arclight/store/testing';
import { createTestDatabase, type TestDatabase } from '@arclight/test-fixtures/postgres';
import { afterAll, beforeAll } from 'vitest';
import { PostgresLightningStore } from '../../src/index.js';
import { startRoundRobin } from './support/round-robin.js';
import { emptySchema } from './support/schemas.js';

/**
 * The conformance suite over HTTP with several servers: two `@arclight/server` instances, each with its own
 * PostgresLightningStore (own pool, own LISTEN connection, own watchdog) over the same schema, behind a
 * round-robin balancer, so consecutive calls of one case land on different servers — a rollout finished
 * through one server must wake a `waitForRollouts` held by the other (through NOTIFY).
 */
const REMOTE_EXCLUSIONS = [
  // OTLP answers only count rejected spans: a remote store cannot say which spans of a batch were duplicates.
  'span.add-many',
  // OTLP stores each (rollout, attempt) group on its own; a batch with one unknown attempt is not refused whole.
  'span.add-many-atomic',
  // The HTTP contract forbids `null` for attempt fields (400), so a remote store cannot clear them.
  'attempt.update-unset-vs-null',
];

const SERVERS = 2;
let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase('conformance_http');
});
afterAll(async () => {
  await db?.drop();
});

class BalancedClient extends LightningStoreClient {
  constructor(
    url: string,
    private readonly teardown: () => Promise<void>,
  ) {
    super(url, { retryDelays: [0.05, 0.1], healthRetryDelays: [0.05] });
  }

  override async close(): Promise<void> {
    await super.close();
    await this.teardown();
  }
}

describeLightningStoreConformance({
  name: `LightningStoreClient → round-robin → ${SERVERS} × @arclight/server → PostgresLightningStore`,
  exclude: REMOTE_EXCLUSIONS,
  create: async ({ clock, scanDebounceSeconds }) => {
    await emptySchema(db.url, 'conformance');
    const stores: PostgresLightningStore[] = [];
    const servers: ReturnType<typeof createLightningStoreServer>[] = [];
    const urls: string[] = [];
    for (let i = 0; i < SERVERS; i++) {
      const store = await PostgresLightningStore.open({
        connectionString: db.url,
        schema: 'conformance',
        poolSize: 3,
        clock,
        scanDebounceSeconds,
      });
      const server = createLightningStoreServer(store, { host: '127.0.0.1', port: 0 });
      stores.push(store);
      servers.push(server);
      urls.push(await server.listen());
    }
    const balancer = await startRoundRobin(urls);
    return new BalancedClient(balancer.url, async () => {
      await balancer.close();
      for (const server of servers) await server.close();
      for (const store of stores) await store.close();
    });
  },
});
