import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Runs scripts with upstream's Python package (agentlightning 0.3.0) from the repo venv
 * (`scripts/python-env.sh`). Without the venv the interop tests fail, unless ARCLIGHT_SKIP_PYTHON=1 is set
 * outside CI (then they are skipped with `describe.skipIf(SKIP_PYTHON)`).
 */
const here = dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = resolve(here, '../../../..');
export const PYTHON = process.env.ARCLIGHT_PYTHON ?? resolve(REPO_ROOT, '.venv/bin/python');
export const PYTHON_SCRIPTS = here;
export const SKIP_PYTHON = process.env.ARCLIGHT_SKIP_PYTHON === '1' && !process.env.CI;
/** Importing agentlightning takes ~15 s (it imports litellm). */
export const PYTHON_TIMEOUT_MS = 240_000;

export interface PythonResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runPython(args: string[]): Promise<PythonResult> {
  if (!existsSync(PYTHON)) {
    return Promise.reject(
      new Error(
        `Python venv not found at ${PYTHON}. Run \`bash scripts/python-env.sh\` ` +
          '(or set ARCLIGHT_SKIP_PYTHON=1 to skip interop tests locally).',
      ),
    );
  }
  return new Promise((resolvePromise, reject) => {
    const child = spawn(PYTHON, args, {
      env: { ...process.env, LITELLM_LOCAL_MODEL_COST_MAP: 'True', PYTHONUNBUFFERED: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code, stdout, stderr }));
  });
}

/** The JSON on the script's `SUMMARY ` line; throws with the output when the script failed. */
export function summaryOf(result: PythonResult): Record<string, unknown> {
  const line = result.stdout.split('\n').find((l) => l.startsWith('SUMMARY '));
  if (result.code !== 0 || !line) {
    throw new Error(
      `Python scenario failed (exit ${result.code}).\n--- stdout ---\n${result.stdout}\n` +
        `--- stderr ---\n${result.stderr.slice(-8000)}`,
    );
  }
  return JSON.parse(line.slice('SUMMARY '.length)) as Record<string, unknown>;
}
