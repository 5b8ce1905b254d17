export * from './lightning-store.js';
export * from './backend.js';
export { BaseLightningStore, type BaseStoreOptions } from './base-store.js';
export { InMemoryLightningStore } from './memory-store.js';
export { SqliteLightningStore, type SqliteStoreOptions } from './sqlite-store.js';
export { MemoryBackend } from './memory/index.js';
export { SqliteBackend } from './sqlite/index.js';
export { rolloutStatusFromAttempt } from './semantics/rollout-status.js';
export { NotFoundError, StoreError, ValidationError, StoreClosedError } from '@arclight/core';
