import type { Span } from '@arclight/core';
import { TraceToMessages, TraceToTriplet } from '../../src/index.js';
import { toOptions } from './upstream-options.js';

/** What one adapter run gave: data, or the failure. Same shape as the Python runner's answer. */
export type Outcome = { ok: unknown } | { error: string };

export interface GoldenCase {
  name: string;
  description?: string;
  triplet: Record<string, unknown>[];
  messages?: boolean;
  spans: Span[];
}

export interface CaseOutcome {
  triplet: Outcome[];
  messages: Outcome | null;
}

function run(fn: () => unknown): Outcome {
  try {
    return { ok: fn() };
  } catch (error) {
    return { error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  }
}

/** Our adapters on one golden case. */
export function runOurs(golden: GoldenCase): CaseOutcome {
  return {
    triplet: golden.triplet.map((kwargs) =>
      run(() => new TraceToTriplet(toOptions(kwargs)).adapt(golden.spans)),
    ),
    messages:
      golden.messages === false ? null : run(() => new TraceToMessages().adapt(golden.spans)),
  };
}

/**
 * The comparable form of an outcome: JSON text of the data (after a JSON round trip, so both sides go
 * through JavaScript's number and key-order rules), or just "error" — messages differ between languages,
 * failing is what must agree.
 */
export function comparable(outcome: Outcome | null): string {
  if (outcome === null) return 'not compared';
  if ('error' in outcome) return 'error';
  return JSON.stringify(JSON.parse(JSON.stringify(outcome.ok)));
}
