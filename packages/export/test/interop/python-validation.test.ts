import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SKIP_PYTHON } from '@arclight/test-fixtures/python';
import { describe, expect, it } from 'vitest';
import { type ExportSummary, FORMAT_NAMES, writeExport } from '../../src/index.js';
import { recordOf } from '../support/fixtures.js';
import { type ManifestEntry, validateWithPython } from '../support/python.js';
import { SCENARIO } from '../support/scenario.js';

const GROUPS = [
  ['ro-r1', 'ro-r2', 'ro-r3'],
  ['ro-r4', 'ro-r5'],
  ['ro-r6', 'ro-r7'],
];

const PARQUET = new Set(['verl-parquet', 'verl-trajectory-parquet', 'verl-sft', 'verl-rlhf']);
const extension = (format: string) => (PARQUET.has(format) ? 'parquet' : 'jsonl');
/** ART is loaded and trained by openpipe-art itself (test/interop/trainers.test.ts), not by a look-alike here. */
const VALIDATED = FORMAT_NAMES.filter((format) => format !== 'art');

/** Copies `source` with its first line rewritten by `mutate` (for the negative cases). */
function corrupt(source: string, target: string, mutate: (row: Record<string, unknown>) => void) {
  const [first, ...rest] = readFileSync(source, 'utf8').trimEnd().split('\n');
  const row = JSON.parse(first!) as Record<string, unknown>;
  mutate(row);
  writeFileSync(target, [JSON.stringify(row), ...rest].join('\n') + '\n');
}

describe.skipIf(SKIP_PYTHON)('every format, read back by its Python consumer', () => {
  it('pyarrow / datasets / openai types / ART pydantic models accept all outputs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'arclight-export-'));
    const entries: ManifestEntry[] = [];
    const summaries: Record<string, ExportSummary> = {};
    for (const format of VALIDATED) {
      const path = join(dir, `${format}.${extension(format)}`);
      summaries[format] = await writeExport(SCENARIO.map(recordOf), {
        format,
        out: path,
        rowGroupSize: 3,
      });
      const entry: ManifestEntry = { format, path, rows: summaries[format]!.rows, groups: GROUPS };
      if (format.endsWith('-parquet')) entry.row_groups = Math.ceil(summaries[format]!.rows / 3);
      entries.push(entry);
    }
    for (const summary of Object.values(summaries)) expect(summary.rows).toBeGreaterThan(0);

    // Negative cases: the checks must reject what a trainer would reject.
    const bad = (name: string, format: string, mutate: (row: Record<string, unknown>) => void) => {
      const path = join(dir, `bad-${name}.jsonl`);
      corrupt(join(dir, `${format}.jsonl`), path, mutate);
      entries.push({ name: `bad-${name}`, format, path });
    };
    bad('verl-mask', 'verl-trajectory-jsonl', (row) => {
      (row.response_mask as number[]).pop();
    });
    bad('verl-uid', 'verl-jsonl', (row) => {
      row.uid = 'another-task';
      row.data_id = 'another-task';
    });
    bad('trl-dpo-same', 'trl-dpo', (row) => {
      row.rejected = row.chosen;
    });
    bad('trl-sft-args', 'trl-sft', (row) => {
      const messages = row.messages as Array<{
        tool_calls?: Array<{ function: { arguments: unknown } }>;
      }>;
      for (const m of messages) for (const c of m.tool_calls ?? []) c.function.arguments = '{}';
    });
    bad('openai-dpo-two', 'openai-dpo', (row) => {
      const out = row.preferred_output as object[];
      out.push(out[0]!);
    });
    bad('openai-sft-role', 'openai-sft', (row) => {
      (row.messages as Array<{ role: string }>)[0]!.role = 'robot';
    });

    const results = await validateWithPython(entries);
    for (const format of VALIDATED) {
      expect(results[format], `${format}: ${results[format]?.error}`).toMatchObject({
        ok: true,
        rows: summaries[format]!.rows,
      });
    }
    for (const entry of entries.filter((e) => e.name)) {
      expect(results[entry.name!]?.ok, `${entry.name} should be rejected`).toBe(false);
    }
  }, 120_000);
});
