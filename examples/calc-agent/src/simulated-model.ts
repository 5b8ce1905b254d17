import { contentText, type Responder } from '@arclight/test-fixtures';
import type { MathProblem } from './tasks.js';

/**
 * A scripted stand-in for a small model, served by the fixture LLM server: asked a task's question, it calls
 * `calculator` with the task's worked expression — but without parentheses, a typical small-model slip (so
 * `(17+23+35)/3` comes out wrong and rewards vary) — and, given the tool's result, answers with it in the
 * required format. Deterministic: the same run gives the same bytes.
 */
export function simulatedCalcModel(tasks: readonly MathProblem[]): Responder {
  return {
    name: 'simulated-calc-model',
    match: (req) => req.tools.some((tool) => tool.name === 'calculator'),
    reply: (req) => {
      const last = req.messages.at(-1);
      if (last?.role === 'tool') {
        const result = contentText(last.content);
        return { content: `The calculator returned ${result}.\n### ANSWER: ${result} ###` };
      }
      const task = tasks.find((t) => req.lastUserText.includes(t.question));
      if (!task) return { content: 'I do not know how to solve this.\n### ANSWER: none ###' };
      return {
        tool_calls: [
          { name: 'calculator', arguments: { expression: dropParentheses(task.chain) } },
        ],
      };
    },
  };
}

function dropParentheses(expression: string): string {
  return expression.replace(/[()]/g, '');
}
