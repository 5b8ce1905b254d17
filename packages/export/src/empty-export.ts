import type { ExportSummary } from './summary.js';

/**
 * What to do about each skip reason: the option (or instrumentation change) that would have kept the rollouts.
 * Shared by the empty-export error, `arclight export` and `arclight doctor`.
 */
export const SKIP_FIXES: Readonly<Record<string, string>> = {
  unfinished:
    'the rollouts are still running: finish them (mark the attempt succeeded/failed), or export them anyway with --rollout-status running (option rolloutStatus)',
  status:
    'filtered out by --rollout-status; widen it (e.g. --rollout-status succeeded,failed,running)',
  mode: 'filtered out by --mode; drop it or pick the mode the rollouts were run in',
  since: 'filtered out by --since; use an earlier time',
  no_attempt: 'the rollouts were never started by a worker (no attempt); run them first',
  no_spans:
    'no spans were recorded: is the agent instrumented and its tracer exporting to this store?',
  adapter_error: 'the adapter could not read the spans (see the warnings)',
  no_llm_calls:
    'no span matched the LLM-call pattern: pass --llm-call-match <regex> (option adapter.llmCallMatch) matching your LLM-call span names, or check --agent-match; or the LLM calls were not traced at all (the agent process then warned ARCLIGHT_UNTRACED_LLM_REQUESTS: instrument the `openai` it imports with instrumentOpenAI)',
  no_token_ids:
    'the LLM calls carry no token ids: request them from the engine (vLLM: extra_body {return_token_ids: true}; @arclight/openai does it with requestTokenIds) or use a message format (trl-sft, openai-sft, verl-sft)',
  no_messages:
    'the LLM calls recorded no prompt/completion messages; enable content capture in the instrumentation',
  no_logprobs:
    'ART trains only replies with logprobs: request them (@arclight/openai requestLogprobs: true; vLLM logprobs: true) — these replies were exported as plain, untrained assistant messages',
  below_min_reward: 'below --min-reward; lower it',
  single_rollout_task:
    'preference formats need >= 2 rollouts of the same task: run each task several times',
  no_reward_difference:
    'the rollouts of a task all have the same reward (emit rewards, or lower the DPO margin minRewardGap)',
  no_pairable_conversations: 'best and worst rollouts share no prompt with different replies',
  identical_first_replies:
    'openai-dpo compares only the first reply after the shared prompt, and the best and worst rollouts start with the same one (use trl-dpo, which compares whole conversations)',
  not_best_or_worst: 'only the best and worst rollout of a task form a pair (not an error)',
};

/** One line per skip reason: `reason: count — fix`. */
export function skipExplanations(
  summary: Pick<ExportSummary, 'skipped_rollouts' | 'skipped_triplets'>,
): string[] {
  const lines: string[] = [];
  for (const [reason, count] of Object.entries(summary.skipped_rollouts)) {
    if (reason === 'not_best_or_worst') continue;
    lines.push(
      `${count} rollout(s) skipped, ${reason}: ${SKIP_FIXES[reason] ?? 'see the summary'}`,
    );
  }
  for (const [reason, count] of Object.entries(summary.skipped_triplets)) {
    lines.push(
      `${count} LLM call(s) skipped, ${reason}: ${SKIP_FIXES[reason] ?? 'see the summary'}`,
    );
  }
  return lines;
}

/**
 * Thrown when an export writes no row (unless `allowEmpty` is set): nothing is left at `out`, and the message
 * lists, per skip reason, how many rollouts or calls it cost and the fix. `summary` holds the counts.
 */
export class EmptyExportError extends Error {
  /** The CLI's exit code for it. */
  readonly exitCode = 2;

  constructor(readonly summary: ExportSummary) {
    const reasons = skipExplanations(summary);
    const why =
      summary.rollouts === 0
        ? ['the store holds no rollouts (is the agent writing to this store?)']
        : reasons.length > 0
          ? reasons
          : ['no rollout produced a row'];
    super(
      `no rows for ${summary.format} from ${summary.rollouts} rollout(s); nothing was written.\n${why
        .map((line) => `  - ${line}`)
        .join('\n')}`,
    );
    this.name = 'EmptyExportError';
  }
}
