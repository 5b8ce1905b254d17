/** Timestamps above this are taken to be nanoseconds (upstream `convert_timestamp`). */
const NANOSECOND_THRESHOLD = 1e12;

/**
 * Normalises an epoch timestamp to seconds: values above 1e12 are nanoseconds and are divided by 1e9
 * (upstream `convert_timestamp`). Unlike upstream, `0` stays `0`; see {@link otelTimestampToSeconds}.
 */
export function toEpochSeconds(timestamp: number): number {
  return timestamp > NANOSECOND_THRESHOLD ? timestamp / 1e9 : timestamp;
}

/** Upstream `convert_timestamp` exactly: absent or zero → `null`, nanoseconds → seconds. */
export function convertTimestamp(timestamp: number | null | undefined): number | null {
  if (!timestamp) return null;
  return toEpochSeconds(timestamp);
}
