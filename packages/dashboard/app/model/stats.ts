/** Mean, spread and count of a list of numbers. */
export interface Summary {
  count: number;
  mean: number | null;
  std: number | null;
  min: number | null;
  max: number | null;
}

export function summarize(values: readonly number[]): Summary {
  const count = values.length;
  if (count === 0) return { count, mean: null, std: null, min: null, max: null };
  let sum = 0;
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const v of values) {
    sum += v;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  const mean = sum / count;
  let squares = 0;
  for (const v of values) squares += (v - mean) ** 2;
  return { count, mean, std: Math.sqrt(squares / count), min, max };
}
