import { readdirSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GoldenCase } from './outcome.js';

const GOLDEN_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../golden');

/** The hand-built golden traces (test/golden/*.json, written by test/golden/build.ts). */
export function loadGoldens(): GoldenCase[] {
  return readdirSync(GOLDEN_DIR)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => JSON.parse(readFileSync(resolve(GOLDEN_DIR, file), 'utf8')) as GoldenCase);
}
