import type { Span } from '../types/span.js';

/** Upstream `Adapter[T_from, T_to]`: turns one kind of data into another. */
export interface Adapter<From, To> {
  adapt(source: From): To;
}

/**
 * Upstream `TraceAdapter[T_to]`: an {@link Adapter} from a rollout's spans (e.g. `TraceToTriplet`), handed to
 * the algorithm by the trainer.
 */
export type TraceAdapter<To = unknown> = Adapter<Span[], To>;
