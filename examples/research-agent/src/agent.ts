import type OpenAI from 'openai';
import { openPage, search } from './corpus.js';
import { ANSWER_FORMAT, extractAnswer, type ResearchTask } from './tasks.js';

export const SYSTEM_PROMPT =
  'You are a research assistant. Answer questions from the encyclopedia only: search it, open the pages you need, and follow every link in the question before answering.';

/** At most this many LLM calls per question (the last one must answer). */
export const MAX_TURNS = 8;

export const TOOLS: OpenAI.Chat.ChatCompletionTool[] = [
  {
    type: 'function',
    function: {
      name: 'search',
      description:
        'Searches the encyclopedia; returns the ids and titles of the best matching pages.',
      parameters: {
        type: 'object',
        properties: { query: { type: 'string', description: 'a few keywords' } },
        required: ['query'],
      },
    },
  },
  {
    type: 'function',
    function: {
      name: 'open_page',
      description: 'Returns the text of one encyclopedia page.',
      parameters: {
        type: 'object',
        properties: { id: { type: 'string', description: 'a page id from search' } },
        required: ['id'],
      },
    },
  },
];

type Message = OpenAI.Chat.ChatCompletionMessageParam;

/** Runs one tool call; unknown tools and bad arguments become an error the model can read. */
export function runTool(call: OpenAI.Chat.ChatCompletionMessageToolCall): string {
  if (call.type !== 'function') return JSON.stringify({ error: 'not a function call' });
  let args: Record<string, unknown>;
  try {
    args = JSON.parse(call.function.arguments) as Record<string, unknown>;
  } catch {
    return JSON.stringify({ error: `arguments are not JSON: ${call.function.arguments}` });
  }
  if (call.function.name === 'search') return JSON.stringify(search(String(args.query ?? '')));
  if (call.function.name === 'open_page') return JSON.stringify(openPage(String(args.id ?? '')));
  return JSON.stringify({ error: `unknown tool ${call.function.name}` });
}

export interface ResearchResult {
  answer: string;
  /** LLM calls made. */
  turns: number;
  tool_calls: number;
}

/**
 * The agent loop: one conversation that grows by the model's reply and the tool results each turn (so every
 * prompt extends the previous prompt + reply — what lets a trajectory export merge the turns into one row),
 * until the model answers without a tool call. `seed` picks the sample (two samples of one question may differ).
 */
export async function research(
  client: OpenAI,
  model: string,
  task: ResearchTask,
  seed: number,
): Promise<ResearchResult> {
  const messages: Message[] = [
    { role: 'system', content: SYSTEM_PROMPT },
    { role: 'user', content: `${task.question} ${ANSWER_FORMAT}` },
  ];
  let toolCalls = 0;
  for (let turn = 1; turn <= MAX_TURNS; turn++) {
    const res = await client.chat.completions.create({
      model,
      messages,
      tools: TOOLS,
      temperature: 1,
      seed,
    });
    const reply = res.choices[0]?.message;
    if (!reply) throw new Error('the model returned no choice');
    const calls = reply.tool_calls ?? [];
    if (calls.length === 0) {
      return { answer: extractAnswer(reply.content ?? ''), turns: turn, tool_calls: toolCalls };
    }
    messages.push({ role: 'assistant', content: reply.content, tool_calls: calls });
    for (const call of calls) {
      messages.push({ role: 'tool', tool_call_id: call.id, content: runTool(call) });
      toolCalls += 1;
    }
  }
  return { answer: '', turns: MAX_TURNS, tool_calls: toolCalls };
}
