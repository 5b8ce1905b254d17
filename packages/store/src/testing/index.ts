import '@arclight/core/supported-node'; // first: a clear error on Node.js < 22.13

/**
 * `@arclight/store/testing`: the LightningStore conformance suite (vitest), reusable by any store
 * implementation — in-memory, SQLite, an HTTP client talking to a server, or a remote upstream server.
 */

export {
  CLOCK_DEPENDENT_CASES,
  CONFORMANCE_CASES,
  describeLightningStoreConformance,
} from './describe.js';
export { FakeClock } from './fake-clock.js';
export { makeSpan } from './helpers.js';
export { createOtelSpanFactory, type OtelSpanFactory, type OtelSpanOptions } from './otel.js';
export type { CaseContext, ConformanceCase, ConformanceTarget } from './target.js';
