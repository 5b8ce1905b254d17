export * from './types/status.js';
export * from './types/rollout.js';
export * from './types/span.js';
export * from './types/worker.js';
export * from './types/paginated.js';
export * from './types/triplet.js';
export * from './types/resources.js';
export * from './otel/otel-span-like.js';
