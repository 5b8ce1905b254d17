import { ValidationError } from '@arclight/core';
import type { SeededRandom } from './random.js';

/**
 * Endless batches over a dataset (upstream `batch_iter_over_dataset`): a batch at least as large as the dataset
 * is the whole dataset, reshuffled each time; otherwise batches of `batchSize` distinct items, each item once
 * per pass, reshuffling at every pass (a batch may span two passes).
 */
export function* batchIterOverDataset<T>(
  dataset: readonly T[],
  batchSize: number,
  random: SeededRandom,
): Generator<T[], never, void> {
  if (dataset.length === 0) throw new ValidationError('dataset: expected at least one item');
  if (!Number.isInteger(batchSize) || batchSize < 1) {
    throw new ValidationError(`batchSize: expected a positive integer, got ${String(batchSize)}`);
  }
  if (batchSize >= dataset.length) {
    for (;;) yield random.shuffle(dataset);
  }
  let current: number[] = [];
  for (;;) {
    for (const index of random.shuffle(dataset.map((_, i) => i))) {
      if (current.includes(index)) continue;
      current.push(index);
      if (current.length === batchSize) {
        yield current.map((i) => dataset[i]!);
        current = [];
      }
    }
  }
}
