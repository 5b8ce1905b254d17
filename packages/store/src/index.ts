import '@arclight/core/supported-node'; // first: a clear error on Node.js < 22.13

export { NotFoundError, StoreClosedError, StoreError, ValidationError } from '@arclight/core';
export * from './backend.js';
export {
  BackendLightningStore,
  type BaseStoreOptions,
  type SpanTextSource,
} from './backend-store.js';
export { BaseLightningStore, type StoreClockOptions } from './base-store.js';
// Building blocks for LightningStore implementations outside this package (e.g. @arclight/store-postgres),
// so that every backend shares one validation and one set of record-level rules.
export { attemptChanges, rolloutChanges } from './changes.js';
export * from './lightning-store.js';
export {
  MemoryBackend,
  type SpanCapOptions,
  SpansEvictedError,
  StoreFullError,
} from './memory/index.js';
export { InMemoryLightningStore, type InMemoryStoreOptions } from './memory-store.js';
export { type PageEnd, PageEnds } from './page-ends.js';
export * as storeParams from './params.js';
export {
  addSpanFilters,
  attemptQuery,
  resourcesQuery,
  rolloutQuery,
  SPAN_FILTER_FIELDS,
  type SpanFilterTarget,
  spanQuery,
  workerQuery,
} from './queries.js';
export * from './record-rules.js';
export { type ArmedWait, RolloutWaiters } from './rollout-waiters.js';
export { rolloutStatusFromAttempt } from './semantics/rollout-status.js';
export { unhealthyStatus } from './semantics/watchdog.js';
export {
  markWorkerIdleAfterEmptyDequeue,
  newWorker,
  syncWorkerWithAttempt,
} from './semantics/worker-sync.js';
export {
  checkSqliteStartup,
  SqliteBackend,
  type SqliteStartupCheckOptions,
} from './sqlite/index.js';
export { SqliteLightningStore, type SqliteStoreOptions } from './sqlite-store.js';
