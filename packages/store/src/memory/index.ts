export { MemoryBackend, type MemoryBackendOptions } from './memory-backend.js';
export {
  type SpanCapOptions,
  SpansEvictedError,
  StoreFullError,
} from './span-cap.js';
export type { SpanSizeEstimator } from './span-table.js';
