import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe } from 'vitest';
import type { StoreBackend } from '../src/backend.js';
import { MemoryBackend } from '../src/memory/index.js';
import { SqliteBackend } from '../src/sqlite/index.js';
import { filterCases } from './contract/filters.js';
import { queueCases } from './contract/queue.js';
import { recordCases } from './contract/records.js';
import { sortingCases } from './contract/sorting.js';
import { transactionCases } from './contract/transactions.js';

/** Everything the StoreBackend interface promises, run against every backend. */

let dir: string | undefined;
let files = 0;
const tempFile = (): string => {
  dir ??= mkdtempSync(join(tmpdir(), 'arclight-contract-'));
  return join(dir, `store-${++files}.db`);
};
afterAll(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

const backends: { name: string; open: () => StoreBackend }[] = [
  { name: 'MemoryBackend', open: () => new MemoryBackend() },
  { name: 'SqliteBackend(:memory:)', open: () => new SqliteBackend({ path: ':memory:' }) },
  { name: 'SqliteBackend(file)', open: () => new SqliteBackend({ path: tempFile() }) },
];

describe.each(backends)('$name', ({ open }) => {
  let current: StoreBackend;
  beforeEach(() => {
    current = open();
  });
  afterEach(() => {
    current.close();
  });
  const backend = () => current;

  describe('records', () => recordCases(backend));
  describe('filters', () => filterCases(backend));
  describe('sorting and paging', () => sortingCases(backend));
  describe('queue', () => queueCases(backend));
  describe('transactions', () => transactionCases(backend));
});
