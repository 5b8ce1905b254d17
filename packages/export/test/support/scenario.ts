import type { FixtureCall, FixtureMessage, FixtureRollout } from './fixtures.js';

/**
 * The shared scenario every format test exports:
 * - task q1 (tool-using agent, two calls, prefix-preserving ids): r1 reward 1, r2 reward 0, r3 reward 0.5;
 * - task q2 (two agents whose second prompt is not an extension of the first): r4 reward 1, r5 reward 0;
 * - task q3: r6 recorded without token ids and without a reward, r7 has spans but no LLM call.
 */

const SEARCH_TOOL = {
  name: 'search',
  description: 'Search the knowledge base',
  parameters: {
    type: 'object',
    properties: { query: { type: 'string' } },
    required: ['query'],
  },
};

function toolAgent(question: string, variant: string): FixtureCall[] {
  const system: FixtureMessage = { role: 'system', content: 'You answer with the search tool.' };
  const user: FixtureMessage = { role: 'user', content: question };
  const toolCall: FixtureMessage = {
    role: 'assistant',
    content: null,
    tool_calls: [
      { id: `call_${variant}`, name: 'search', arguments: { query: `${question} ${variant}` } },
    ],
  };
  const toolResult: FixtureMessage = {
    role: 'tool',
    content: `result for ${variant}`,
    tool_call_id: `call_${variant}`,
  };
  const answer: FixtureMessage = { role: 'assistant', content: `answer ${variant}` };
  return [
    { agent: 'solver', prompt: [system, user], reply: toolCall, tools: [SEARCH_TOOL] },
    {
      agent: 'solver',
      prompt: [system, user, toolCall, toolResult],
      reply: answer,
      tools: [SEARCH_TOOL],
    },
  ];
}

function twoAgents(question: string, variant: string): FixtureCall[] {
  const draft: FixtureMessage = { role: 'assistant', content: `draft ${variant}` };
  return [
    {
      agent: 'writer',
      prompt: [
        { role: 'system', content: 'Write SQL.' },
        { role: 'user', content: question },
      ],
      reply: draft,
    },
    {
      agent: 'checker',
      prompt: [
        { role: 'system', content: 'Check SQL.' },
        { role: 'user', content: `Check: draft ${variant}` },
      ],
      reply: { role: 'assistant', content: variant === 'good' ? 'CORRECT' : 'WRONG' },
    },
  ];
}

export const SCENARIO: FixtureRollout[] = [
  { rollout_id: 'ro-r1', input: { question: 'q1' }, calls: toolAgent('q1', 'a'), reward: 1 },
  { rollout_id: 'ro-r2', input: { question: 'q1' }, calls: toolAgent('q1', 'b'), reward: 0 },
  { rollout_id: 'ro-r3', input: { question: 'q1' }, calls: toolAgent('q1', 'c'), reward: 0.5 },
  { rollout_id: 'ro-r4', input: { question: 'q2' }, calls: twoAgents('q2', 'good'), reward: 1 },
  { rollout_id: 'ro-r5', input: { question: 'q2' }, calls: twoAgents('q2', 'bad'), reward: 0 },
  {
    rollout_id: 'ro-r6',
    input: { question: 'q3' },
    calls: toolAgent('q3', 'd').map((c) => ({ ...c, noTokenIds: true })),
  },
  { rollout_id: 'ro-r7', input: { question: 'q3' }, calls: [], reward: 0, mode: 'val' },
];
