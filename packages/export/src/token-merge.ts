import { sameMessage } from './messages.js';
import { type PreparedCall, promptExtends } from './prepared.js';

/**
 * Trajectory-level aggregation (agent-lightning's `trace_aggregator.level: trajectory`, ART's append-only merge,
 * SkyRL's `merge_stepwise_output`): consecutive calls of a rollout become one row while each call's prompt ids
 * start exactly with the row so far (previous prompt + response ids). Tokens between the previous response and
 * the next response (tool results, new user turns, template glue) are observation tokens: `response_mask` 0 and
 * logprob 0.0 placeholders. A call whose prompt does not extend the row, or a call without ids, starts a new row.
 */
export interface TokenRow {
  /** The merged calls, in order (one for transition rows). */
  calls: PreparedCall[];
  /** The first call's prompt ids. */
  prompt_ids: number[];
  /** Everything after the first prompt: responses and observation tokens. */
  response_ids: number[];
  /** 1 = sampled by the model (trained), 0 = observation (masked out of the loss). */
  response_mask: number[];
  /** Aligned with `response_ids` (0.0 on observation tokens); null when any merged call lacks logprobs. */
  rollout_log_probs: number[] | null;
}

const hasIds = (call: PreparedCall): boolean =>
  call.prompt_ids !== null && call.response_ids !== null;

/** A packed list of zeros, grown on demand; rows take `slice`s of it (a native copy, packed like the ids). */
let zeros: number[] = [];
export function zerosOf(n: number): number[] {
  if (zeros.length < n) {
    const grown: number[] = []; // pushed, not `new Array(n)`: that one stays holey after `fill`
    for (let i = Math.max(n, 2 * zeros.length, 1024); i > 0; i--) grown.push(0);
    zeros = grown;
  }
  return zeros.slice(0, n);
}

/** A row of one call: shares the call's lists (nothing is appended to them later). */
function callRow(call: PreparedCall, withLogprobs: boolean): TokenRow {
  const response = call.response_ids!;
  return {
    calls: [call],
    prompt_ids: call.prompt_ids!,
    response_ids: response,
    response_mask: zerosOf(response.length).fill(1),
    rollout_log_probs: withLogprobs ? call.logprobs : null,
  };
}

/**
 * The row of a prefix-merged run of calls (each call's prompt starts with the previous call's prompt + response,
 * checked by `mergedRuns`). The row so far is always the last merged call's prompt + response, so the row's
 * `response_ids` are the last call's prompt after the first prompt, then its response: two native copies instead
 * of one push per id. The mask and logprobs are laid out by segments (each call's observation tokens, then its
 * response).
 */
export function mergedRow(calls: PreparedCall[], withLogprobs: boolean): TokenRow {
  if (calls.length === 1) return callRow(calls[0]!, withLogprobs);
  const first = calls[0]!;
  const last = calls[calls.length - 1]!;
  const promptLength = first.prompt_ids!.length;
  const response_ids = last.prompt_ids!.slice(promptLength).concat(last.response_ids!);
  const response_mask = zerosOf(response_ids.length);
  let logprobs: number[][] | null = withLogprobs ? [] : null;
  let end = 0; // where the previous call's response ends in the row's response lists
  for (let i = 0; i < calls.length; i++) {
    const call = calls[i]!;
    const start = call.prompt_ids!.length - promptLength; // its response starts here
    const length = call.response_ids!.length;
    response_mask.fill(1, start, start + length);
    if (logprobs) {
      const values = call.logprobs;
      if (values) {
        if (start > end) logprobs.push(zerosOf(start - end));
        logprobs.push(values);
      } else logprobs = null;
    }
    end = start + length;
  }
  const rollout_log_probs = logprobs ? ([] as number[]).concat(...logprobs) : null;
  return { calls, prompt_ids: first.prompt_ids!, response_ids, response_mask, rollout_log_probs };
}

/** One row per call that has token ids (verl's transition level). */
export const transitionRows = (calls: readonly PreparedCall[]): TokenRow[] =>
  calls.filter(hasIds).map((call) => callRow(call, true));

/**
 * Why a call's prompt did not extend the row before it (the Token-In-Token-Out invariant broke):
 * - `different_agent`: another agent's call (its own conversation);
 * - `tools_changed`: same agent, but the call offers other tools than the previous one (chat templates render the
 *   tool list into the system block, so its ids change although the messages do not);
 * - `system_prompt_changed`: same agent, but the first (system) message differs;
 * - `history_rewritten`: the prompt messages do not start with the previous prompt + reply (summarised, trimmed,
 *   reordered history);
 * - `token_drift`: the messages extend the conversation but the ids do not (the template or tokenizer re-rendered
 *   the earlier turns differently, e.g. a tool call rendered with other tokens than it was generated with).
 */
export type PrefixBreakReason =
  | 'different_agent'
  | 'tools_changed'
  | 'system_prompt_changed'
  | 'history_rewritten'
  | 'token_drift';

export interface PrefixBreak {
  /** Index of the call that started a new row. */
  turn_index: number;
  /** First position (in the new prompt's ids) where it differs from the row so far. */
  position: number;
  reason: PrefixBreakReason;
}

function firstDifference(
  ids: readonly number[],
  prefix: readonly number[],
  rest: readonly number[],
): number {
  const n = prefix.length + rest.length;
  for (let i = 0; i < n; i++) {
    const want = i < prefix.length ? prefix[i] : rest[i - prefix.length];
    if (i >= ids.length || ids[i] !== want) return i;
  }
  return n;
}

function breakReason(previous: PreparedCall, call: PreparedCall): PrefixBreakReason {
  if ((previous.agent_name ?? null) !== (call.agent_name ?? null)) return 'different_agent';
  if (JSON.stringify(previous.tools) !== JSON.stringify(call.tools)) return 'tools_changed';
  const before = previous.prompt_messages;
  const now = call.prompt_messages;
  if (before.length > 0 && now.length > 0 && before[0]!.role === 'system') {
    if (!sameMessage(before[0]!, now[0]!)) return 'system_prompt_changed';
  }
  const reply = previous.response_message;
  const expected = reply ? [...before, reply] : before;
  if (now.length < expected.length) return 'history_rewritten';
  for (let i = 0; i < expected.length; i++) {
    if (!sameMessage(expected[i]!, now[i]!)) return 'history_rewritten';
  }
  return 'token_drift';
}

/**
 * Prefix-merged rows (verl's trajectory level); calls without ids are left out and break the chain. `onBreak`
 * hears every call with ids that had to start a new row although the previous call had ids too. With
 * `withLogprobs` false every row's `rollout_log_probs` is null and no call's logprobs are extracted (for formats
 * that do not write them).
 */
export function trajectoryRows(
  calls: readonly PreparedCall[],
  onBreak?: (prefixBreak: PrefixBreak) => void,
  withLogprobs = true,
): TokenRow[] {
  return mergedRuns(calls, onBreak).map((run) => mergedRow(run, withLogprobs));
}

/**
 * The calls of each prefix-merged row, in order (see `trajectoryRows`): a call joins the run before it when its
 * prompt ids start with the previous call's prompt + response ids (the row so far).
 */
export function mergedRuns(
  calls: readonly PreparedCall[],
  onBreak?: (prefixBreak: PrefixBreak) => void,
): PreparedCall[][] {
  const runs: PreparedCall[][] = [];
  let run: PreparedCall[] | null = null;
  let previous: PreparedCall | null = null;
  for (const call of calls) {
    if (
      previous &&
      call.response_ids !== null &&
      promptExtends(call, previous.prompt_ids!, previous.response_ids!)
    ) {
      run!.push(call);
      previous = call;
      continue;
    }
    if (!hasIds(call)) {
      run = null;
      previous = null;
      continue;
    }
    if (run && onBreak) {
      onBreak({
        turn_index: call.turn_index,
        position: firstDifference(call.prompt_ids!, previous!.prompt_ids!, previous!.response_ids!),
        reason: breakReason(previous!, call),
      });
    }
    run = [call];
    runs.push(run);
    previous = call;
  }
  return runs;
}
