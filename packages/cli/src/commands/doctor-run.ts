import { diagnoseStore, type StoreDiagnosis } from '@arclight/export';
import type { DoctorCommandOptions } from './doctor.js';
import { openSource } from './export-run.js';

const pct = (n: number, of: number): string => (of === 0 ? '-' : `${n}/${of}`);

/** The human-readable report: one line per rollout, then the skip reasons with their fixes. */
export function formatDiagnosis(report: StoreDiagnosis): string {
  const lines = [
    `arclight doctor: ${report.rollouts.length} rollout(s)`,
    '  rollout                      status     calls  token-ids  logprobs  messages  tools  reward   export (tokens / chat)',
  ];
  for (const r of report.rollouts) {
    lines.push(
      `  ${r.rollout_id.padEnd(28)} ${r.status.padEnd(10)} ${String(r.llm_calls).padStart(5)}  ${pct(
        r.calls_with_token_ids,
        r.llm_calls,
      ).padStart(9)}  ${pct(r.calls_with_logprobs, r.llm_calls).padStart(8)}  ${pct(
        r.calls_with_messages,
        r.llm_calls,
      ).padStart(8)}  ${pct(r.calls_with_tools, r.llm_calls).padStart(5)}  ${(
        r.reward === null ? 'none' : String(r.reward)
      ).padStart(6)}   ${r.token_export_skip ? `skip: ${r.token_export_skip}` : 'ok'} / ${
        r.chat_export_skip ? `skip: ${r.chat_export_skip}` : 'ok'
      }`,
    );
  }
  const noReward = report.rollouts.filter((r) => r.llm_calls > 0 && r.reward === null).length;
  if (noReward > 0) {
    lines.push(
      `  note: ${noReward} rollout(s) with LLM calls emitted no reward (exported with reward 0); emit one with emitReward`,
    );
  }
  if (report.reasons.length > 0) {
    lines.push('  what an export would skip, and the fix:');
    for (const r of report.reasons)
      lines.push(`    - ${r.reason} (${r.rollouts} rollout(s)): ${r.fix}`);
  }
  return `${lines.join('\n')}\n`;
}

/** Runs `arclight doctor`; resolves to the exit code (1 when no rollout would be exported by any format). */
export async function runDoctor(options: DoctorCommandOptions): Promise<number> {
  const store = openSource(options);
  if (typeof store === 'string') {
    process.stderr.write(`arclight doctor: ${store}\n`);
    return 1;
  }
  try {
    const report = await diagnoseStore(store, {
      adapter: {
        ...(options.agentMatch !== undefined ? { agentMatch: options.agentMatch } : {}),
        ...(options.llmCallMatch !== undefined ? { llmCallMatch: options.llmCallMatch } : {}),
      },
    });
    process.stdout.write(
      options.json ? `${JSON.stringify(report, null, 2)}\n` : formatDiagnosis(report),
    );
    const exportable = report.rollouts.some(
      (r) => r.token_export_skip === null || r.chat_export_skip === null,
    );
    return exportable ? 0 : 1;
  } catch (error) {
    process.stderr.write(`arclight doctor: ${(error as Error).message}\n`);
    return 1;
  } finally {
    await store.close().catch(() => undefined);
  }
}
