export { NotFoundError, StoreClosedError, StoreError, ValidationError } from '@arclight/core';
export * from './backend.js';
export { BaseLightningStore, type BaseStoreOptions } from './base-store.js';
export * from './lightning-store.js';
export { MemoryBackend } from './memory/index.js';
export { InMemoryLightningStore } from './memory-store.js';
export { rolloutStatusFromAttempt } from './semantics/rollout-status.js';
export { SqliteBackend } from './sqlite/index.js';
export { SqliteLightningStore, type SqliteStoreOptions } from './sqlite-store.js';
