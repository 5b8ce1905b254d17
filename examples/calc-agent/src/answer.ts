import { evaluate } from './calculator.js';

/** What the agent is told about the answer's format. */
export const ANSWER_FORMAT =
  'When you know the answer, write it as ### ANSWER: <number> ### (three hash signs on each side).';

/** The answer inside `### ANSWER: … ###`, else the whole reply (trimmed). */
export function extractAnswer(reply: string): string {
  const match = /###\s*ANSWER:\s*(.+?)\s*(###|$)/m.exec(reply);
  return (match?.[1] ?? reply).trim();
}

/**
 * Reward 1 when the prediction equals the ground truth — as text, or as numbers within a relative tolerance
 * of 1e-2 (upstream Calc-X's `math.isclose(…, rel_tol=1e-2)`); both sides may be arithmetic (`3/4`).
 */
export function reward(prediction: string, groundTruth: string): number {
  const a = clean(prediction);
  const b = clean(groundTruth);
  if (a === b) return 1;
  const x = numberOf(a);
  const y = numberOf(b);
  if (x === undefined || y === undefined) return 0;
  return Math.abs(x - y) <= 1e-2 * Math.max(Math.abs(x), Math.abs(y)) ? 1 : 0;
}

function clean(text: string): string {
  return text
    .trim()
    .replace(/[$€£%]|,(?=\d{3}\b)/g, '')
    .replace(/\.$/, '');
}

function numberOf(text: string): number | undefined {
  try {
    return evaluate(text);
  } catch {
    return undefined;
  }
}
