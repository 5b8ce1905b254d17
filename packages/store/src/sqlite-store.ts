import { BackendLightningStore, type BaseStoreOptions } from './backend-store.js';
import type { LightningStoreCapabilities } from './lightning-store.js';
import { SqliteBackend } from './sqlite/index.js';

export interface SqliteStoreOptions extends BaseStoreOptions {
  /** Database file (created if missing), or ':memory:'. */
  path: string;
  /** `normal` (default): an acknowledged write survives a process crash; `full`: also a power loss (slower). */
  synchronous?: 'full' | 'normal';
  /** Open the file read-only (it must exist at the current schema version); writes fail. */
  readOnly?: boolean;
}

/**
 * The embedded default LightningStore: one SQLite file (WAL), durable and shareable by several processes
 * on one machine. Reopening the same file gives back everything.
 */
export class SqliteLightningStore extends BackendLightningStore {
  readonly capabilities: LightningStoreCapabilities = {
    thread_safe: true,
    async_safe: true,
    zero_copy: true,
    otlp_traces: false,
  };

  constructor(options: SqliteStoreOptions) {
    super(
      new SqliteBackend({
        path: options.path,
        synchronous: options.synchronous,
        readOnly: options.readOnly,
      }),
      options,
    );
  }
}
