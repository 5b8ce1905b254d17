import { ValidationError } from '@arclight/core';

/**
 * Ordered comparisons of span times that fail where Python's do: upstream compares `start_time` /
 * `end_time` with `<`, `<=`, `>` and raises `TypeError` when one of them is `None`.
 */
function known(value: number | null, what: () => string): number {
  if (value === null || value === undefined) {
    throw new ValidationError(`${what()} is null; spans without times cannot be ordered`);
  }
  return value;
}

export const lessOrEqual = (a: number | null, b: number | null, what: () => string): boolean =>
  known(a, what) <= known(b, what);

export const greaterThan = (a: number | null, b: number | null, what: () => string): boolean =>
  known(a, what) > known(b, what);

/**
 * Python's `sorted(nodes, key=start_time)`: a stable sort; with two or more items every key takes part in a
 * comparison, so one `null` key raises.
 */
export function sortByTime<T>(
  items: readonly T[],
  key: (item: T) => number | null,
  what: (item: T) => string,
): T[] {
  if (items.length < 2) return [...items];
  for (const item of items) known(key(item), () => what(item));
  return [...items].sort((a, b) => {
    const x = key(a) as number;
    const y = key(b) as number;
    return x < y ? -1 : x > y ? 1 : 0;
  });
}
