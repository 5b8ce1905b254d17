/** One golden trace: spans plus how to run upstream's adapters on them. */
export interface GoldenCase {
  name: string;
  description: string;
  /** `TracerTraceToTriplet` keyword arguments (upstream names), one run each. */
  triplet: Record<string, unknown>[];
  /** Also compare `TraceToMessages` (default true). */
  messages?: boolean;
  spans: Record<string, unknown>[];
}
