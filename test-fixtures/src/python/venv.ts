// Where the repo's Python venv is (`bash scripts/python-env.sh`: upstream agentlightning 0.3.0 and the readers
// the interop tests use), when interop tests may skip, and the environment every Python child gets.
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findRepoRoot } from '../recordings.js';

/** The repo root (the nearest ancestor declaring npm workspaces). */
export const REPO_ROOT =
  findRepoRoot() ?? resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** `$ARCLIGHT_PYTHON`, else `<repo>/.venv/bin/python`. */
export const PYTHON = process.env.ARCLIGHT_PYTHON ?? resolve(REPO_ROOT, '.venv/bin/python');

/** Upstream's `agl` command next to the interpreter. */
export const AGL = resolve(dirname(PYTHON), 'agl');

/**
 * Interop tests never skip silently: without the venv they fail. They skip (`describe.skipIf(SKIP_PYTHON)`)
 * only when ARCLIGHT_SKIP_PYTHON=1 is set and CI is not.
 */
export const SKIP_PYTHON = process.env.ARCLIGHT_SKIP_PYTHON === '1' && !process.env.CI;

/** Importing agentlightning takes ~15 s (it imports litellm); Python steps get generous limits. */
export const PYTHON_TIMEOUT_MS = 240_000;

/** Whether the interpreter exists. */
export function hasPython(): boolean {
  return existsSync(PYTHON);
}

/** Throws, naming the missing interpreter and the fix, when the venv is not there. */
export function requirePython(): void {
  if (!hasPython()) {
    throw new Error(
      `Python venv not found at ${PYTHON}. Run \`bash scripts/python-env.sh\` ` +
        '(or, outside CI, set ARCLIGHT_SKIP_PYTHON=1 to skip the Python interop tests).',
    );
  }
}

/**
 * The environment of a Python child: ours, plus LiteLLM's bundled cost map (no network fetch), unbuffered
 * output and quiet agentlightning logs; `extra` overrides any of them.
 */
export function pythonEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    LITELLM_LOCAL_MODEL_COST_MAP: 'True',
    PYTHONUNBUFFERED: '1',
    AGL_LOG_LEVEL: 'WARNING',
    ...extra,
  };
}
