import { fileURLToPath } from 'node:url';
import { runPythonJson } from '@arclight/test-fixtures/python';
import type { CaseOutcome, GoldenCase } from './outcome.js';

const RUNNER = fileURLToPath(new URL('../interop/python/run_goldens.py', import.meta.url));

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
  return runPythonJson<UpstreamAnswer>(
    [RUNNER],
    { cases, record: recordBaseUrl ? { base_url: recordBaseUrl } : null },
    { env: { AGL_LOG_LEVEL: 'ERROR' } },
  );
}
