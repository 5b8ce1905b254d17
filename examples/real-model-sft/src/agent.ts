// The agent: one chat call offering `get_weather`; the reward grades the tool call it makes. It is plain `openai`
// code, traced with token ids by the openai instrumentation like any other agent.
import { rollout } from '@arclight/runner';
import OpenAI from 'openai';
import type { WeatherTask } from './tasks.js';

export const TOOL_NAME = 'get_weather';

export const TOOLS: OpenAI.Chat.ChatCompletionTool[] = [
  {
    type: 'function',
    function: {
      name: TOOL_NAME,
      description: 'Current weather of a city',
      parameters: {
        type: 'object',
        properties: { city: { type: 'string', description: 'The city name' } },
        required: ['city'],
      },
    },
  },
];

/** The system prompt of every rollout, teacher's and student's alike. */
export const SYSTEM_PROMPT =
  'You are a weather assistant. Answer weather questions with the get_weather tool.';

export interface WeatherRollout extends WeatherTask {
  /**
   * The teacher (data collection) asks with `tool_choice: 'required'`: the engine forces the opening of the tool call
   * (vLLM's guided decoding does the same) and the model writes the arguments. The student (evaluation) asks with
   * `auto`, as a deployed agent would, and must start the call by itself.
   */
  teacher: boolean;
  temperature: number;
  seed: number;
}

const norm = (s: string) => s.trim().toLowerCase();

/**
 * 1 for exactly one `get_weather` call naming the right city; 0.25 for a well-formed call of the tool with other
 * arguments; 0 for no call (a 135M model mostly answers in prose).
 */
export function grade(message: OpenAI.Chat.ChatCompletionMessage, city: string): number {
  const calls = (message.tool_calls ?? []).filter((c) => c.type === 'function');
  if (calls.length === 0) return 0;
  const call = calls[0]!;
  if (call.function.name !== TOOL_NAME) return 0;
  try {
    const args = JSON.parse(call.function.arguments) as { city?: unknown };
    return calls.length === 1 && typeof args.city === 'string' && norm(args.city) === norm(city)
      ? 1
      : 0.25;
  } catch {
    return 0.25;
  }
}

/** One rollout: the model answers the question once; the reward grades its tool call. */
export const weatherAgent = rollout<WeatherRollout>(async (task, { llm }) => {
  const client = new OpenAI({ baseURL: llm.endpoint, apiKey: 'real-engine', maxRetries: 0 });
  const completion = await client.chat.completions.create({
    model: llm.model,
    messages: [
      { role: 'system', content: SYSTEM_PROMPT },
      { role: 'user', content: task.question },
    ],
    tools: TOOLS,
    tool_choice: task.teacher ? 'required' : 'auto',
    temperature: task.temperature,
    seed: task.seed,
    max_tokens: 40,
  });
  return grade(completion.choices[0]!.message, task.city);
});
