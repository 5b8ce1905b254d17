import type { OpenAIMessages } from '@arclight/adapter';
import type { RolloutStatus, Span } from '@arclight/core';

/** One evaluated rollout, as APO's textual gradient sees it (upstream `RolloutResultForAPO`). */
export interface RolloutResultForAPO {
  rollout_id: string;
  status: RolloutStatus;
  /** The last reward among the latest attempt's spans (null: none). */
  final_reward: number | null;
  spans: Span[];
  /** One chat conversation per LLM call (`TraceToMessages`). */
  messages: OpenAIMessages[];
}

const formatReward = (reward: number | null): string => (reward === null ? 'none' : String(reward));

/**
 * The `{experiments}` text of the gradient prompts: one `<experiment>` element per run with its status and
 * final reward as attributes and, inside, the chat messages of each of its LLM calls as a JSON array (one
 * `{"messages": [...]}` object per call, one per line). Tool definitions are left out to save tokens; the
 * calls and results themselves are in the messages.
 */
export function renderExperiments(results: readonly RolloutResultForAPO[]): string {
  return results
    .map((result, i) => {
      const calls = result.messages.map((conversation) =>
        JSON.stringify({ messages: conversation.messages }),
      );
      const body = calls.length > 0 ? `[\n${calls.join(',\n')}\n]` : '[]';
      return (
        `<experiment index="${i + 1}" status="${result.status}" ` +
        `final_reward="${formatReward(result.final_reward)}">\n${body}\n</experiment>`
      );
    })
    .join('\n');
}
