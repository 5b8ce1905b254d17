import type { RewardMatchPolicy, TraceToTripletOptions } from '../../src/index.js';

/** Upstream `TracerTraceToTriplet` keyword arguments → our options. */
export function toOptions(kwargs: Record<string, unknown>): TraceToTripletOptions {
  const options: TraceToTripletOptions = {};
  for (const [key, value] of Object.entries(kwargs)) {
    switch (key) {
      case 'repair_hierarchy':
        options.repairHierarchy = value as boolean;
        break;
      case 'llm_call_match':
        options.llmCallMatch = value as string;
        break;
      case 'agent_match':
        options.agentMatch = value as string | null;
        break;
      case 'exclude_llm_call_in_reward':
        options.excludeLlmCallInReward = value as boolean;
        break;
      case 'reward_match':
        options.rewardMatch = value as RewardMatchPolicy;
        break;
      case '_skip_empty_token_spans':
        options.skipEmptyTokenSpans = value as boolean;
        break;
      default:
        throw new Error(`unknown upstream option ${key}`);
    }
  }
  return options;
}
