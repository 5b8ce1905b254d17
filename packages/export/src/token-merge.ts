import { sameMessage } from './messages.js';
import type { PreparedCall } from './prepared.js';

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

/** Does `ids` start with `prefix` followed by `rest`? */
function startsWithPair(
  ids: readonly number[],
  prefix: readonly number[],
  rest: readonly number[],
) {
  if (ids.length < prefix.length + rest.length) return false;
  for (let i = 0; i < prefix.length; i++) if (ids[i] !== prefix[i]) return false;
  const offset = prefix.length;
  for (let i = 0; i < rest.length; i++) if (ids[offset + i] !== rest[i]) return false;
  return true;
}

const hasIds = (call: PreparedCall): boolean =>
  call.prompt_ids !== null && call.response_ids !== null;

/**
 * A row of one call; `extensible` copies the lists `extendRow` appends to (else the row shares the call's).
 * Without `withLogprobs` the row's `rollout_log_probs` is null and the calls' logprobs are never extracted.
 */
function startRow(call: PreparedCall, extensible: boolean, withLogprobs = true): TokenRow {
  const response = call.response_ids!;
  const logprobs = withLogprobs ? call.logprobs : null;
  return {
    calls: [call],
    prompt_ids: call.prompt_ids!,
    response_ids: extensible ? response.slice() : response,
    response_mask: new Array<number>(response.length).fill(1),
    rollout_log_probs: logprobs && extensible ? logprobs.slice() : logprobs,
  };
}

function extendRow(row: TokenRow, call: PreparedCall): void {
  const prompt = call.prompt_ids!;
  const observed = prompt.length - row.prompt_ids.length - row.response_ids.length;
  for (let i = prompt.length - observed; i < prompt.length; i++) {
    row.response_ids.push(prompt[i]!);
    row.response_mask.push(0);
  }
  for (const id of call.response_ids!) {
    row.response_ids.push(id);
    row.response_mask.push(1);
  }
  if (row.rollout_log_probs && call.logprobs) {
    for (let i = 0; i < observed; i++) row.rollout_log_probs.push(0);
    for (const lp of call.logprobs) row.rollout_log_probs.push(lp);
  } else {
    row.rollout_log_probs = null;
  }
  row.calls.push(call);
}

/** One row per call that has token ids (verl's transition level). */
export const transitionRows = (calls: readonly PreparedCall[]): TokenRow[] =>
  calls.filter(hasIds).map((call) => startRow(call, false));

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
  const rows: TokenRow[] = [];
  let current: TokenRow | null = null;
  for (const call of calls) {
    if (!hasIds(call)) {
      current = null;
      continue;
    }
    if (current && startsWithPair(call.prompt_ids!, current.prompt_ids, current.response_ids)) {
      extendRow(current, call);
    } else {
      if (current && onBreak) {
        onBreak({
          turn_index: call.turn_index,
          position: firstDifference(call.prompt_ids!, current.prompt_ids, current.response_ids),
          reason: breakReason(current.calls.at(-1)!, call),
        });
      }
      current = startRow(call, true, withLogprobs);
      rows.push(current);
    }
  }
  return rows;
}
