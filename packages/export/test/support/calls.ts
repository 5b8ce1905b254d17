import type { PreparedCall } from '../../src/index.js';

/** A minimal prepared call for the merge tests. */
export function call(
  turn_index: number,
  prompt_ids: number[] | null,
  response_ids: number[] | null,
  logprobs: number[] | null = response_ids ? response_ids.map(() => -0.5) : null,
): PreparedCall {
  return {
    turn_index,
    triplet: { prompt: {}, response: {}, reward: null, metadata: {} },
    agent_name: null,
    response_id: null,
    prompt_ids,
    response_ids,
    logprobs,
    logprob_entries: null,
    prompt_messages: [],
    response_message: null,
    finish_reason: null,
    tools: [],
    call_reward: null,
  };
}
