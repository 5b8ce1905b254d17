import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The repo's Python venv (`bash scripts/python-env.sh`: pyarrow, datasets, openai, pydantic). The validation
 * never skips silently: without the venv it fails, unless ARCLIGHT_SKIP_PYTHON=1 is set outside CI.
 */
const here = dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = resolve(here, '../../../..');
export const PYTHON = process.env.ARCLIGHT_PYTHON ?? resolve(REPO_ROOT, '.venv/bin/python');
export const VALIDATOR = resolve(here, '../python/validate_exports.py');
export const SKIP_PYTHON = process.env.ARCLIGHT_SKIP_PYTHON === '1' && !process.env.CI;

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
  if (!existsSync(PYTHON)) {
    throw new Error(
      `Python venv not found at ${PYTHON}. Run \`bash scripts/python-env.sh\` ` +
        '(or set ARCLIGHT_SKIP_PYTHON=1 to skip the Python validation locally).',
    );
  }
  const dir = mkdtempSync(join(tmpdir(), 'arclight-export-py-'));
  const manifest = join(dir, 'manifest.json');
  writeFileSync(manifest, JSON.stringify({ outputs }));
  const env = {
    ...process.env,
    HF_DATASETS_CACHE: join(dir, 'hf-cache'),
    HF_HUB_OFFLINE: '1',
    HF_DATASETS_DISABLE_PROGRESS_BARS: '1',
    PYTHONUNBUFFERED: '1',
  };
  const { code, stdout, stderr } = await new Promise<{
    code: number | null;
    stdout: string;
    stderr: string;
  }>((resolvePromise, reject) => {
    const child = spawn(PYTHON, [VALIDATOR, manifest], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (exit) => resolvePromise({ code: exit, stdout: out, stderr: err }));
  });
  const line = stdout.split('\n').find((l) => l.startsWith('RESULT '));
  if (!line) {
    throw new Error(`validator crashed (exit ${code}):\n${stdout}\n${stderr.slice(-8000)}`);
  }
  return JSON.parse(line.slice('RESULT '.length)) as Record<string, FormatResult>;
}
