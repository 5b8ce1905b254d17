import { createLightningStoreServer } from '@arclight/server';
import type { LightningStore } from '@arclight/store';
import { LightningStoreClient, type LightningStoreClientOptions } from '../../src/index.js';

/** Short retry schedule for tests against a local server (the policy is the same as the defaults). */
export const TEST_CLIENT_OPTIONS: LightningStoreClientOptions = {
  retryDelays: [0.05, 0.1],
  healthRetryDelays: [0.05],
};

/**
 * A client whose `close()` also stops the in-process server and closes the backing store, so a
 * conformance case that closes its store tears the whole stack down.
 */
export class ServedClient extends LightningStoreClient {
  constructor(
    url: string,
    private readonly teardown: () => Promise<void>,
    options: LightningStoreClientOptions = TEST_CLIENT_OPTIONS,
  ) {
    super(url, options);
  }

  override async close(): Promise<void> {
    await super.close();
    await this.teardown();
  }
}

/** Serves `store` with `@arclight/server` on a free local port and returns a client for it. */
export async function serve(
  store: LightningStore,
  options: LightningStoreClientOptions = TEST_CLIENT_OPTIONS,
): Promise<ServedClient> {
  const server = createLightningStoreServer(store, { host: '127.0.0.1', port: 0 });
  const url = await server.listen();
  let closed = false;
  return new ServedClient(
    url,
    async () => {
      if (closed) return;
      closed = true;
      await server.close();
      await store.close();
    },
    options,
  );
}
