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
  /**
   * Group commit (default true): the writes of one event-loop turn (e.g. the requests a server reads together)
   * share one SQLite commit at the end of the turn; while more writes join in the following turns (a server
   * under load), the commit waits for up to three more turns to take them too. Each call resolves only after
   * its commit. Off while another store of this process has the same file open.
   */
  groupCommit?: boolean;
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
        groupCommit: options.groupCommit ?? true,
      }),
      options,
    );
  }
}
