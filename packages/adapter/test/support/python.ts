import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CaseOutcome, GoldenCase } from './outcome.js';

const here = dirname(fileURLToPath(import.meta.url));
export const PYTHON = process.env.ARCLIGHT_PYTHON ?? resolve(here, '../../../../.venv/bin/python');
const RUNNER = resolve(here, '../python/run_goldens.py');

/** Skipped only on request, and never in CI (where a missing venv must fail). */
export const SKIP_PYTHON = process.env.ARCLIGHT_SKIP_PYTHON === '1' && !process.env.CI;

export interface UpstreamAnswer {
  results: Record<string, CaseOutcome>;
  /** Rollouts recorded by upstream's own AgentOpsTracer (when a server URL was given). */
  recorded: GoldenCase[];
}

/** Runs upstream agentlightning 0.3.0 over all cases in one process (importing it takes seconds). */
export function runUpstream(
  cases: GoldenCase[],
  recordBaseUrl: string | null,
): Promise<UpstreamAnswer> {
  if (!existsSync(PYTHON)) {
    throw new Error(
      `Python venv not found at ${PYTHON}: run \`bash scripts/python-env.sh\` (or set ARCLIGHT_SKIP_PYTHON=1 outside CI).`,
    );
  }
  return new Promise((resolveAnswer, reject) => {
    const child = spawn(PYTHON, [RUNNER], {
      env: { ...process.env, LITELLM_LOCAL_MODEL_COST_MAP: 'True', AGL_LOG_LEVEL: 'ERROR' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const stdout: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) {
        reject(new Error(`run_goldens.py exited with ${code}:\n${stderr.slice(-4000)}`));
        return;
      }
      resolveAnswer(JSON.parse(Buffer.concat(stdout).toString('utf8')) as UpstreamAnswer);
    });
    child.stdin.end(
      JSON.stringify({ cases, record: recordBaseUrl ? { base_url: recordBaseUrl } : null }),
    );
  });
}
