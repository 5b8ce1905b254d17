import { type LLM, PromptTemplate } from '@arclight/core';
import { emitReward } from '@arclight/otel';
import { rollout } from '@arclight/runner';
import {
  getRoomsAndAvailability,
  parseFinalChoice,
  ROOM_TOOL,
  type RoomRequirement,
  type RoomSelectionTask,
} from '@arclight/test-fixtures';

const SYSTEM_PROMPT = 'You are a scheduling assistant.';

/** Upstream's seed prompt: the task, and not one rule about how to choose. APO has to find those. */
export function baselinePrompt(): PromptTemplate {
  return new PromptTemplate({
    template:
      'Find a room on {date} at {time} for {duration_min} minutes, {attendees} attendees. ' +
      'Needs: {needs}. Accessible required: {accessible_required}',
    engine: 'f-string',
  });
}

function promptValues(input: RoomRequirement): Record<string, unknown> {
  return {
    ...input,
    needs: input.needs.length > 0 ? input.needs.join(', ') : 'none',
    accessible_required: input.accessible_required ? 'yes' : 'no',
  };
}

/** Reward: 1 when the answer's `final_choice` is the expected room (or "No Room"), else 0. */
export function grade(answer: string | null, expected: string): number {
  return answer !== null && parseFinalChoice(answer).toLowerCase() === expected.toLowerCase()
    ? 1
    : 0;
}

interface ToolCall {
  id: string;
  function: { name: string; arguments: string };
}
interface ChatMessage {
  role: string;
  content: string | null;
  tool_calls?: ToolCall[];
  tool_call_id?: string;
}

/**
 * One chat call with nothing but `fetch` — the kind of code an agent in any language has. The gateway's
 * rollout-scoped base URL (`llm.endpoint`) is the only thing that ties the call to the rollout.
 */
async function chat(llm: LLM, body: Record<string, unknown>): Promise<ChatMessage | undefined> {
  const res = await fetch(`${llm.endpoint}/chat/completions`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(llm.api_key ? { authorization: `Bearer ${llm.api_key}` } : {}),
    },
    body: JSON.stringify({ model: llm.model, ...body }),
  });
  if (!res.ok) throw new Error(`LLM call failed: ${res.status} ${await res.text()}`);
  const json = (await res.json()) as { choices: { message: ChatMessage }[] };
  return json.choices[0]?.message;
}

/** The room-selector agent's loop (tool call, tool result, answer), its LLM reached with plain `fetch`. */
export async function selectRoomWithFetch(
  task: RoomSelectionTask,
  template: { format(values: Record<string, unknown>): string },
  llm: LLM,
): Promise<string | null> {
  const messages: ChatMessage[] = [
    { role: 'system', content: SYSTEM_PROMPT },
    { role: 'user', content: template.format(promptValues(task.task_input)) },
  ];
  const first = await chat(llm, {
    messages,
    tools: [ROOM_TOOL],
    tool_choice: 'auto',
    temperature: 0,
  });
  const calls = first?.tool_calls ?? [];
  if (!first || calls.length === 0) return first?.content ?? null;
  messages.push({ role: 'assistant', content: first.content, tool_calls: calls });
  for (const call of calls) {
    const args = JSON.parse(call.function.arguments) as {
      date: string;
      time: string;
      duration_min: number;
    };
    const result = getRoomsAndAvailability(args.date, args.time, Number(args.duration_min));
    messages.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify(result) });
  }
  const second = await chat(llm, { messages, temperature: 0 });
  return second?.content ?? null;
}

/** The rollout: `llm` is the gateway's `ProxyLLM`, already routed to this attempt by the runner. */
export const fetchRoomSelector = rollout<RoomSelectionTask>(
  async (task, { llm, promptTemplate }) => {
    const answer = await selectRoomWithFetch(task, promptTemplate, llm);
    emitReward(grade(answer, task.expected_choice));
  },
);
