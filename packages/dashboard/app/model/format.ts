/** Display helpers: times on the wire are Unix seconds (floats). */

export function formatTime(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined) return '—';
  const date = new Date(seconds * 1000);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ` +
    `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`
  );
}

export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return '—';
  if (seconds < 1) return `${Math.round(seconds * 1000)} ms`;
  if (seconds < 60) return `${seconds.toFixed(seconds < 10 ? 2 : 1)} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${Math.round(seconds % 60)} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** "3 s ago", "5 min ago" relative to `now` (seconds). */
export function formatAgo(seconds: number | null | undefined, now: number): string {
  if (seconds === null || seconds === undefined) return 'never';
  const delta = Math.max(0, now - seconds);
  if (delta < 60) return `${Math.round(delta)} s ago`;
  if (delta < 3600) return `${Math.round(delta / 60)} min ago`;
  return `${(delta / 3600).toFixed(1)} h ago`;
}

export function formatNumber(value: number | null | undefined, digits = 3): string {
  if (value === null || value === undefined || Number.isNaN(value)) return '—';
  return Number.isInteger(value) ? String(value) : value.toFixed(digits);
}

/** Duration between two wire times, null while unfinished unless `now` is given. */
export function durationOf(start: number | null, end: number | null, now?: number): number | null {
  if (start === null) return null;
  const stop = end ?? now ?? null;
  return stop === null ? null : Math.max(0, stop - start);
}
