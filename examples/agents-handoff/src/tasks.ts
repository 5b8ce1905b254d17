/** One customer question and the text a correct final answer must contain. */
export interface HandoffTask {
  question: string;
  expected: string;
}

/** The rollouts of the example: two arithmetic questions (math specialist), two billing questions. */
export const TASKS: readonly HandoffTask[] = [
  { question: 'What is 17 times 23?', expected: '391' },
  { question: 'Can you work out 144 divided by 12?', expected: '12' },
  { question: 'How much is still due on invoice INV-1002?', expected: '$245.00' },
  { question: 'Has invoice INV-1001 been paid?', expected: 'paid' },
];

/** Reward: 1 when the final answer contains the expected text (case-insensitive), else 0. */
export function scoreAnswer(answer: unknown, expected: string): number {
  if (typeof answer !== 'string') return 0;
  return answer.toLowerCase().includes(expected.toLowerCase()) ? 1 : 0;
}
