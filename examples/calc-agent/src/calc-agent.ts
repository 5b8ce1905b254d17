import type { TracerSource } from '@arclight/instrumentation-ai-sdk';
import { arclightTelemetry } from '@arclight/instrumentation-ai-sdk';
import { generateText, jsonSchema, type LanguageModel, stepCountIs, tool } from 'ai';
import { ANSWER_FORMAT, extractAnswer } from './answer.js';
import { evaluate, formatNumber } from './calculator.js';
import type { MathProblem } from './tasks.js';

/** The agent name its spans carry (`agent.name`), for the adapter's `agentMatch`. */
export const AGENT_NAME = 'calc';

export const calculator = tool({
  description:
    'Evaluates an arithmetic expression with + - * / % ^, parentheses, sqrt() and abs(); returns the number.',
  inputSchema: jsonSchema<{ expression: string }>({
    type: 'object',
    properties: { expression: { type: 'string', description: 'e.g. (17+23)/4' } },
    required: ['expression'],
  }),
  execute: async ({ expression }) => formatNumber(evaluate(expression)),
});

/**
 * Solves one math problem with a calculator tool, like upstream's Calc-X agent (an AutoGen assistant with an
 * MCP calculator): the model may call the tool over several steps, then states the answer as
 * `### ANSWER: … ###`. Returns the extracted answer.
 */
export async function solve(
  task: MathProblem,
  model: LanguageModel,
  tracer: TracerSource,
): Promise<string> {
  const result = await generateText({
    model,
    instructions:
      'You are a careful math assistant. Use the calculator tool for every arithmetic step.',
    prompt: `${task.question} ${ANSWER_FORMAT}`,
    tools: { calculator },
    stopWhen: stepCountIs(5),
    telemetry: arclightTelemetry(tracer, { agentName: AGENT_NAME }),
  });
  return extractAnswer(result.text);
}
