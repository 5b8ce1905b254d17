/**
 * The algorithm contract is `@arclight/trainer`'s (the trainer runs algorithms); this package re-exports it so
 * algorithm authors need one import.
 */
export type { Algorithm, AlgorithmContext, Dataset, TraceAdapter } from '@arclight/trainer';
