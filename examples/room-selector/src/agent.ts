import { type LLM, PromptTemplate } from '@arclight/core';
import { emitReward } from '@arclight/otel';
import { rollout } from '@arclight/runner';
import OpenAI from 'openai';
import { getRoomsAndAvailability, ROOM_TOOL, ROOM_TOOL_NAME, ROOMS } from './rooms.js';
import type { RoomRequirement, RoomSelectionTask } from './tasks.js';

export const SYSTEM_PROMPT = 'You are a scheduling assistant.';
export const NO_ROOM = 'No Room';

/** Upstream's seed prompt: the task, and not one rule about how to choose. APO has to find those. */
export function baselinePrompt(): PromptTemplate {
  return new PromptTemplate({
    template:
      'Find a room on {date} at {time} for {duration_min} minutes, {attendees} attendees. ' +
      'Needs: {needs}. Accessible required: {accessible_required}',
    engine: 'f-string',
  });
}

/** The prompt's fields for a task (lists and booleans spelled out for the model). */
export function promptValues(input: RoomRequirement): Record<string, unknown> {
  return {
    ...input,
    needs: input.needs.length > 0 ? input.needs.join(', ') : 'none',
    accessible_required: input.accessible_required ? 'yes' : 'no',
  };
}

/** The room id (or "No Room") an answer names: `final_choice: <ROOM_ID>` first, else any room mentioned. */
export function parseChoice(answer: string | null | undefined): string | null {
  if (!answer) return null;
  const known = [...ROOMS.map((r) => r.id), NO_ROOM];
  const find = (text: string) =>
    known.find((id) => new RegExp(`\\b${id}\\b`, 'i').test(text.replace(/[*_`"']/g, '')));
  const line = /final_choice\s*[:=]\s*([^\n]+)/i.exec(answer)?.[1];
  return (line !== undefined ? find(line) : find(answer)) ?? null;
}

/** Reward: 1 for the expected room (or "No Room"), else 0. */
export const gradeChoice = (choice: string | null, expected: string): number =>
  choice !== null && choice.toLowerCase() === expected.toLowerCase() ? 1 : 0;

type Message = OpenAI.Chat.ChatCompletionMessageParam;

function runTool(call: OpenAI.Chat.ChatCompletionMessageToolCall): string {
  if (call.type !== 'function' || call.function.name !== ROOM_TOOL_NAME) {
    return JSON.stringify({ error: `unknown tool ${JSON.stringify(call)}` });
  }
  try {
    const args = JSON.parse(call.function.arguments) as Record<string, unknown>;
    const result = getRoomsAndAvailability(
      String(args.date),
      String(args.time),
      Number(args.duration_min),
    );
    return JSON.stringify(result);
  } catch (error) {
    return JSON.stringify({ error: (error as Error).message });
  }
}

/**
 * The agent's loop (upstream `room_selector`): the prompt template filled with the task as the user message,
 * one call with the `get_rooms_and_availability` tool, the tool's results, a second call for the answer.
 * Returns the final answer text.
 */
export async function selectRoom(
  task: RoomSelectionTask,
  prompt: PromptTemplate,
  llm: LLM,
): Promise<string | null> {
  const client = new OpenAI({
    baseURL: llm.endpoint,
    apiKey: llm.api_key ?? process.env.OPENAI_API_KEY ?? 'unused',
  });
  const temperature = (llm.sampling_parameters.temperature as number | undefined) ?? 0;
  const messages: Message[] = [
    { role: 'system', content: SYSTEM_PROMPT },
    { role: 'user', content: prompt.format(promptValues(task.task_input)) },
  ];
  const first = await client.chat.completions.create({
    model: llm.model,
    messages,
    tools: [ROOM_TOOL],
    tool_choice: 'auto',
    temperature,
  });
  const reply = first.choices[0]?.message;
  const calls = reply?.tool_calls ?? [];
  if (!reply || calls.length === 0) return reply?.content ?? null;
  messages.push({ role: 'assistant', content: reply.content, tool_calls: calls });
  for (const call of calls) {
    messages.push({ role: 'tool', tool_call_id: call.id, content: runTool(call) });
  }
  const second = await client.chat.completions.create({ model: llm.model, messages, temperature });
  return second.choices[0]?.message?.content ?? null;
}

/**
 * The room-selector agent: takes the prompt template and the LLM from the rollout's resources (so runner
 * processes and machines need no configuration), answers, and emits reward 1 when the choice is the expected
 * one, else 0.
 */
export const roomSelector = rollout<RoomSelectionTask>(async (task, { llm, promptTemplate }) => {
  const answer = await selectRoom(task, promptTemplate, llm);
  emitReward(gradeChoice(parseChoice(answer), task.expected_choice));
});
