export { MemoryBackend, type MemoryBackendOptions } from './memory-backend.js';
export type { SpanSizeEstimator } from './span-table.js';
