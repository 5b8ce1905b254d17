import type { HrTime } from '@opentelemetry/api';

/**
 * Times of SDK spans. The SDK stamps `startedAt`/`endedAt` with `new Date().toISOString()` (whole
 * milliseconds, the floor of the real time). The processor records a span over the smallest interval of
 * whole milliseconds that surely contains the real one: from the start's millisecond to the *next*
 * millisecond after the end. So spans that other instrumentations record inside an SDK span (e.g. the
 * `openai.chat.completion` span of `@arclight/instrumentation-openai` inside a generation span) lie within its interval,
 * which upstream's `repair_hierarchy` relies on when it re-parents spans by time.
 */

const NANOS_PER_MILLI = 1_000_000;

/** Epoch milliseconds of an ISO-8601 string (keeping sub-millisecond digits), or undefined. */
export function parseIsoMillis(iso: unknown): number | undefined {
  if (typeof iso !== 'string' || iso === '') return undefined;
  const millis = Date.parse(iso);
  if (!Number.isFinite(millis)) return undefined;
  const fraction = /\.(\d+)/.exec(iso)?.[1];
  if (fraction && fraction.length > 3) {
    const subMillis = Number(`0.${fraction.slice(3)}`);
    if (Number.isFinite(subMillis)) return millis + subMillis;
  }
  return millis;
}

/** `[seconds, nanoseconds]` of epoch milliseconds. */
export function millisToHrTime(millis: number): HrTime {
  const seconds = Math.floor(millis / 1000);
  const nanos = Math.round((millis - seconds * 1000) * NANOS_PER_MILLI);
  return nanos >= 1e9 ? [seconds + 1, nanos - 1e9] : [seconds, nanos];
}

/** Start time of an SDK span: its `startedAt` (a floor), else now. */
export function startMillis(iso: unknown): number {
  return parseIsoMillis(iso) ?? Date.now();
}

/**
 * End time of an SDK span: the millisecond after `endedAt` when that is a whole-millisecond stamp (so the
 * real end is inside), the exact value when it has finer digits, else now; never before `start`.
 */
export function endMillis(iso: unknown, start: number): number {
  const parsed = parseIsoMillis(iso);
  let end: number;
  if (parsed === undefined) end = Date.now();
  else end = Number.isInteger(parsed) ? parsed + 1 : parsed;
  return Math.max(end, start);
}
