import type { TraceToTripletOptions } from '@arclight/adapter';
import type { LightningStore } from '@arclight/store';
import { SKIP_FIXES } from '../empty-export.js';
import { prepareRollout } from '../prepared.js';
import { adapterOf, recordOf, type TripletAdapter } from './from-store.js';
import { compileSelection, type RolloutSelection } from './rollout-filter.js';
import { rolloutPages } from './store-pages.js';

/** What `arclight doctor` reports for one rollout (its latest attempt). */
export interface RolloutDiagnosis {
  rollout_id: string;
  status: string;
  mode: string | null;
  attempt_id: string | null;
  /** LLM calls the adapter found (triplets). */
  llm_calls: number;
  /** Calls with both prompt and response token ids (what verl/trl-sft-tokens need). */
  calls_with_token_ids: number;
  /** Calls whose logprobs align with their response ids (what ART and importance sampling need). */
  calls_with_logprobs: number;
  /** Calls with prompt messages and a reply (what the chat formats need). */
  calls_with_messages: number;
  /** Calls that offered tools to the model. */
  calls_with_tools: number;
  /** The rollout's reward (last non-null triplet reward), or null when none was emitted. */
  reward: number | null;
  /** Why token-id formats (verl-*, trl-sft-tokens) would skip the rollout, or null when they export it. */
  token_export_skip: string | null;
  /** Why chat formats (trl-sft, openai-sft, verl-sft, …) would skip it, or null. */
  chat_export_skip: string | null;
}

export interface StoreDiagnosis {
  rollouts: RolloutDiagnosis[];
  /** Rollouts per skip reason over both kinds of format, with the fix for each. */
  reasons: Array<{ reason: string; rollouts: number; fix: string }>;
}

export interface DiagnoseOptions extends RolloutSelection {
  adapter?: TraceToTripletOptions | TripletAdapter;
  pageSize?: number;
  spanPageSize?: number;
}

/**
 * Reads every rollout of a store the way `exportFromStore` does and reports, per rollout, the LLM calls, their
 * token-id / logprob / message coverage, the reward, and what an export would skip and why.
 */
export async function diagnoseStore(
  store: LightningStore,
  options: DiagnoseOptions = {},
): Promise<StoreDiagnosis> {
  const select = compileSelection(options);
  const adapter = adapterOf(options.adapter);
  const rollouts: RolloutDiagnosis[] = [];
  for await (const page of rolloutPages(store, options.pageSize ?? 100, () => undefined)) {
    for (const rollout of page) {
      const attempt = 'attempt' in rollout ? rollout.attempt : null;
      const base: RolloutDiagnosis = {
        rollout_id: rollout.rollout_id,
        status: rollout.status,
        mode: rollout.mode,
        attempt_id: attempt?.attempt_id ?? null,
        llm_calls: 0,
        calls_with_token_ids: 0,
        calls_with_logprobs: 0,
        calls_with_messages: 0,
        calls_with_tools: 0,
        reward: null,
        token_export_skip: null,
        chat_export_skip: null,
      };
      const record = await recordOf(
        store,
        rollout,
        adapter,
        options.spanPageSize ?? 1000,
        () => {},
      );
      if (typeof record !== 'string') {
        const prepared = prepareRollout(record);
        const calls = prepared.calls;
        base.llm_calls = calls.length;
        base.calls_with_token_ids = calls.filter((c) => c.prompt_ids && c.response_ids).length;
        base.calls_with_logprobs = calls.filter((c) => c.logprobs !== null).length;
        base.calls_with_messages = calls.filter(
          (c) => c.prompt_messages.length > 0 && c.response_message !== null,
        ).length;
        base.calls_with_tools = calls.filter((c) => c.tools.length > 0).length;
        base.reward = prepared.has_reward ? prepared.reward : null;
      }
      const selected = select(rollout);
      const readReason =
        selected ??
        (typeof record === 'string' ? record : base.llm_calls === 0 ? 'no_llm_calls' : null);
      base.token_export_skip =
        readReason ?? (base.calls_with_token_ids === 0 ? 'no_token_ids' : null);
      base.chat_export_skip = readReason ?? (base.calls_with_messages === 0 ? 'no_messages' : null);
      rollouts.push(base);
    }
  }
  const counts = new Map<string, Set<string>>();
  for (const r of rollouts) {
    for (const reason of [r.token_export_skip, r.chat_export_skip]) {
      if (reason === null) continue;
      const ids = counts.get(reason) ?? new Set<string>();
      ids.add(r.rollout_id);
      counts.set(reason, ids);
    }
  }
  return {
    rollouts,
    reasons: [...counts].map(([reason, ids]) => ({
      reason,
      rollouts: ids.size,
      fix: SKIP_FIXES[reason] ?? 'see the export summary',
    })),
  };
}
