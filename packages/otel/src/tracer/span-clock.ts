import type { HrTime } from '@arclight/core';

/**
 * OpenTelemetry JS stamps a span's start with `Date.now()` (whole milliseconds) but its end with that start plus a
 * high-resolution duration, so an instant span emitted right after another span ended can carry a start time
 * *before* that end. Agent Lightning's adapter gives a reward to the LLM call that ended before the reward started,
 * so emitted spans must not start before a span that already ended: their time is the later of now and the latest
 * end time seen by Arclight's span processor.
 */
let latestEndMs = 0;

/** Notes the end time of a span that ended (called by the span processor). */
export function noteSpanEnd(endTime: HrTime | undefined): void {
  if (!endTime) return;
  const ms = endTime[0] * 1000 + endTime[1] / 1e6;
  if (ms > latestEndMs) latestEndMs = ms;
}

/**
 * One microsecond: above the rounding of epoch seconds in a float64 (~0.24 µs today), so that the emitted span's
 * start, once converted to seconds, still compares after the noted end.
 */
const AFTER_MS = 0.001;

/** Epoch milliseconds for an instant span emitted now: never before the latest noted span end. */
export function instantSpanTimeMs(): number {
  const now = Date.now();
  return now > latestEndMs ? now : latestEndMs + AFTER_MS;
}
