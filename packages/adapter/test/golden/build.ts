/**
 * Writes the golden traces (test/golden/*.json) from the hand-written cases. Run after editing a case:
 * `node test/golden/build.ts` (from packages/adapter). The JSON files are what the tests read.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { callCases } from './cases-calls.ts';
import { errorCases } from './cases-errors.ts';
import { payloadCases } from './cases-payloads.ts';
import { rewardCases } from './cases-rewards.ts';

const here = dirname(fileURLToPath(import.meta.url));
mkdirSync(here, { recursive: true });
for (const file of readdirSync(here)) if (file.endsWith('.json')) rmSync(join(here, file));
for (const golden of [...callCases, ...rewardCases, ...payloadCases, ...errorCases]) {
  writeFileSync(join(here, `${golden.name}.json`), `${JSON.stringify(golden, null, 1)}\n`);
}
