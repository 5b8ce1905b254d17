import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runPython, summaryOf } from '@arclight/test-fixtures/python';

/** Reads every output with its Python consumer (pyarrow, datasets, openai, pydantic from the repo's venv). */
const VALIDATOR = fileURLToPath(new URL('../interop/python/validate_exports.py', import.meta.url));

export interface ManifestEntry {
  format: string;
  /** Key of the result (default: the format). */
  name?: string;
  path: string;
  rows?: number;
  /** Rollout ids of one task, per task (their rows must share a uid). */
  groups?: string[][];
  /** Parquet: expected number of row groups. */
  row_groups?: number;
}

export interface FormatResult {
  ok: boolean;
  rows: number | null;
  error: string | null;
}

/** Runs the validator once over every output; resolves to its per-format results. */
export async function validateWithPython(
  outputs: ManifestEntry[],
): Promise<Record<string, FormatResult>> {
  const dir = mkdtempSync(join(tmpdir(), 'arclight-export-py-'));
  const manifest = join(dir, 'manifest.json');
  writeFileSync(manifest, JSON.stringify({ outputs }));
  const result = await runPython([VALIDATOR, manifest], {
    env: {
      HF_DATASETS_CACHE: join(dir, 'hf-cache'),
      HF_HUB_OFFLINE: '1',
      HF_DATASETS_DISABLE_PROGRESS_BARS: '1',
    },
  });
  // The validator exits 1 when any check fails (the negative cases do): its RESULT line is what counts.
  return summaryOf<Record<string, FormatResult>>(result, { marker: 'RESULT', anyExitCode: true });
}
