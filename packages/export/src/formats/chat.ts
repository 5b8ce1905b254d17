import type { Conversation } from '../conversation.js';
import { conversationsOf } from '../conversation.js';
import { parseJsonOr } from '../json-shapes.js';
import type { PreparedCall, PreparedRollout } from '../prepared.js';
import type { ChatMessage, ChatTool } from '../record.js';
import type { SkipCounter } from './format.js';

/** Chat-format helpers shared by the TRL, OpenAI and ART writers. */

/**
 * OpenAI fine-tuning message: standard keys only (role, content, name, tool_calls, tool_call_id, in this order,
 * when not undefined), tool-call `arguments` as JSON strings. Keys are stored by name (this runs for every
 * message of every row).
 */
export function openaiMessage(message: ChatMessage): ChatMessage {
  const out: ChatMessage = { role: message.role };
  const { content, name, tool_calls, tool_call_id } = message;
  if (content !== undefined) out.content = content;
  if (name !== undefined) out.name = name;
  if (tool_calls !== undefined) out.tool_calls = tool_calls;
  if (tool_call_id !== undefined) out.tool_call_id = tool_call_id;
  return out;
}

/**
 * TRL (transformers chat templates) message: tool-call `arguments` parsed into objects, as in TRL's tool-calling
 * example (templates render them with `tojson`); arguments that are not valid JSON stay strings.
 */
export function trlMessage(message: ChatMessage): ChatMessage {
  const out = openaiMessage(message);
  if (out.tool_calls) {
    out.tool_calls = out.tool_calls.map((call) => ({
      ...call,
      function: {
        name: call.function.name,
        arguments: parseJsonOr(call.function.arguments, call.function.arguments) as string,
      },
    }));
  }
  return out;
}

/** `{tools}` when the conversation offered any (the column is omitted otherwise). */
export const toolsField = (tools: ChatTool[]): { tools?: ChatTool[] } =>
  tools.length > 0 ? { tools } : {};

/** The rollout's conversations, counting calls without messages and rollouts left without any. */
export function conversationsWithSkips(
  rollout: PreparedRollout,
  skip: SkipCounter,
): Conversation[] {
  const missing = rollout.calls.filter(
    (c) => c.prompt_messages.length === 0 || c.response_message === null,
  );
  if (missing.length > 0) skip.triplet('no_messages', missing.length);
  const conversations = conversationsOf(rollout.calls);
  if (conversations.length === 0) skip.rollout('no_messages');
  return conversations;
}

/** SFT formats keep rollouts whose reward reaches `minReward` (all when it is null). */
export function passesMinReward(
  rollout: PreparedRollout,
  minReward: number | null,
  skip: SkipCounter,
): boolean {
  if (minReward === null || rollout.reward >= minReward) return true;
  skip.rollout('below_min_reward');
  return false;
}

/**
 * What a prompt-only (online RL) format keeps of a task: its first rollout, the first LLM call that has a
 * prompt, and the task's mean reward. Null, with the task's rollouts counted as `no_messages`, when no call
 * has a prompt.
 */
export function taskPrompt(
  group: PreparedRollout[],
  skip: SkipCounter,
): { first: PreparedRollout; call: PreparedCall; rewardMean: number } | null {
  const call = group.flatMap((r) => r.calls).find((c) => c.prompt_messages.length > 0);
  if (!call) {
    skip.rollout('no_messages', group.length);
    return null;
  }
  const rewardMean = group.reduce((sum, r) => sum + r.reward, 0) / group.length;
  return { first: group[0]!, call, rewardMean };
}
