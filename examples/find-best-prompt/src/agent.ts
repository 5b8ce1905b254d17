import type { LLM } from '@arclight/core';
import { rollout } from '@arclight/runner';
import OpenAI from 'openai';
import type { QuestionTask } from './tasks.js';

const clientFor = (llm: LLM): OpenAI =>
  new OpenAI({
    baseURL: llm.endpoint,
    apiKey: llm.api_key ?? process.env.OPENAI_API_KEY ?? 'unused',
  });

/** The judge (upstream `llm_judge`): a number between 0 and 1 for how well the output covers the task. */
export async function llmJudge(
  llm: LLM,
  task: QuestionTask,
  output: string | null,
): Promise<number> {
  const prompt =
    'Evaluate how well the output fulfills the task.\n' +
    `Task: ${task.question}\n` +
    `Output: ${output ?? ''}\n` +
    `Key points: ${task.key_points.join('; ')}\n` +
    'You must be very critical and strict in your evaluation.\n' +
    'Return only a number between 0 and 1. No text, punctuation, or explanation.';
  const result = await clientFor(llm).chat.completions.create({
    model: llm.model,
    messages: [{ role: 'user', content: prompt }],
    temperature: 0,
  });
  const score = Number.parseFloat(result.choices[0]?.message?.content ?? '');
  return Number.isFinite(score) ? Math.min(1, Math.max(0, score)) : 0;
}

/**
 * The agent (upstream `apo_rollout`): the candidate prompt filled with the question, one LLM call, and the
 * judge's score (a second call to the same model) as the reward. Prompt and model come from the rollout's
 * resources (`main_prompt`, `main_llm`).
 */
export const answerAgent = rollout<QuestionTask>(async (task, { llm, promptTemplate }) => {
  const result = await clientFor(llm).chat.completions.create({
    model: llm.model,
    messages: [{ role: 'user', content: promptTemplate.format({ any_question: task.question }) }],
  });
  const answer = result.choices[0]?.message?.content ?? null;
  return llmJudge(llm, task, answer);
});
