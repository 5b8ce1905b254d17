import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type ExportOptions,
  type ExportRecord,
  type ExportSummary,
  writeExport,
} from '../../src/index.js';

export const tempDir = (): string => mkdtempSync(join(tmpdir(), 'arclight-export-'));

/** Exports `records` to a temp JSONL file; returns the parsed rows and the summary. */
export async function exportJsonl<Row = Record<string, unknown>>(
  records: ExportRecord[],
  options: Omit<ExportOptions, 'out'>,
): Promise<{ rows: Row[]; summary: ExportSummary }> {
  const out = join(tempDir(), 'out.jsonl');
  const summary = await writeExport(records, { ...options, out });
  const text = readFileSync(out, 'utf8');
  const rows =
    text === ''
      ? []
      : text
          .trimEnd()
          .split('\n')
          .map((l) => JSON.parse(l) as Row);
  return { rows, summary };
}
