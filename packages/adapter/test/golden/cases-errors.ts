import { ANNOTATION, agentopsReward, CHAT, chat, reward, spans } from './spans.ts';
import type { GoldenCase } from './types.ts';

const BOTH_POLICIES = [{}, { reward_match: 'first_sibling' }];

/** Golden traces upstream fails on (or partly fails on): both implementations must fail the same way. */
export const errorCases: GoldenCase[] = [
  {
    name: 'empty',
    description: 'No spans: no tree (triplets fail), no conversations',
    triplet: [{}],
    spans: [],
  },
  {
    name: 'bad-reward-value',
    description: 'A reward dimension whose value is not a float',
    triplet: BOTH_POLICIES,
    spans: spans([
      { id: 'root', name: 'session', start: 0, end: 5 },
      { id: 'a', parent: 'root', name: CHAT, start: 1, end: 2, attrs: chat({ id: 'a' }) },
      { id: 'r', parent: 'root', name: ANNOTATION, start: 3, end: 3, attrs: reward('lots') },
    ]),
  },
  {
    name: 'reward-prefix-not-a-list',
    description: 'A key that merely starts with agentlightning.reward',
    triplet: [{}],
    spans: spans([
      { id: 'root', name: 'session', start: 0, end: 5 },
      { id: 'a', parent: 'root', name: CHAT, start: 1, end: 2, attrs: chat({ id: 'a' }) },
      {
        id: 'r',
        parent: 'root',
        name: 'x',
        start: 3,
        end: 3,
        attrs: { 'agentlightning.rewarded': true },
      },
    ]),
  },
  {
    name: 'agentops-output-not-object',
    description: 'AgentOps output that is JSON but not an object',
    triplet: [{}],
    spans: spans([
      { id: 'root', name: 'session', start: 0, end: 5 },
      { id: 'a', parent: 'root', name: CHAT, start: 1, end: 2, attrs: chat({ id: 'a' }) },
      {
        id: 'r',
        parent: 'root',
        name: 'task',
        start: 3,
        end: 3,
        attrs: { 'agentops.task.output': '[1, 2]' },
      },
    ]),
  },
  {
    name: 'bad-logprobs',
    description: 'logprobs.content that is not JSON',
    triplet: [{}],
    spans: spans([
      {
        id: 'a',
        name: CHAT,
        start: 1,
        end: 2,
        attrs: chat({ id: 'a', extra: { 'logprobs.content': '[{"token": ' } }),
      },
    ]),
  },
  {
    name: 'prompt-key-equals-prefix',
    description: 'An attribute named exactly gen_ai.prompt cannot be unflattened',
    triplet: [{}],
    spans: spans([
      {
        id: 'a',
        name: CHAT,
        start: 1,
        end: 2,
        attrs: { 'gen_ai.prompt': 'Hi', 'gen_ai.response.id': 'a' },
      },
    ]),
  },
  {
    name: 'agent-name-not-string',
    description: 'A numeric agent.name: kept as metadata without agent_match, a failure with it',
    triplet: [{}, { agent_match: 'x' }],
    spans: spans([
      { id: 'agent', name: 'agent', start: 0, end: 5, attrs: { 'agent.name': 7 } },
      { id: 'a', parent: 'agent', name: CHAT, start: 1, end: 2, attrs: chat({ id: 'a' }) },
    ]),
  },
  {
    name: 'null-times',
    description:
      'A span without start time: first_occurrence cannot sort, first_sibling still works',
    triplet: [
      { repair_hierarchy: false },
      { repair_hierarchy: false, reward_match: 'first_sibling' },
      {},
    ],
    spans: spans([
      { id: 'root', name: 'session', start: 0, end: 5 },
      { id: 'a', parent: 'root', name: CHAT, start: 1, end: 2, attrs: chat({ id: 'a' }) },
      { id: 'x', parent: 'root', name: 'untimed', start: null, end: null },
      { id: 'r', parent: 'root', name: ANNOTATION, start: 3, end: 3, attrs: reward(1) },
    ]),
  },
  {
    name: 'tool-message-without-id',
    description: 'A tool message without tool_call_id fails the chat-message validation',
    triplet: [{}],
    spans: spans([
      {
        id: 'a',
        name: CHAT,
        start: 1,
        end: 2,
        attrs: chat({
          id: 'a',
          prompt: [
            ['user', 'Hi'],
            ['tool', 'result'],
          ],
        }),
      },
    ]),
  },
  {
    name: 'prompt-not-a-list',
    description:
      'gen_ai.prompt.* without indices is an object: conversations fail, triplets do not',
    triplet: [{}],
    spans: spans([
      {
        id: 'a',
        name: CHAT,
        start: 1,
        end: 2,
        attrs: {
          'gen_ai.prompt.role': 'user',
          'gen_ai.prompt.content': 'Hi',
          'gen_ai.response.id': 'a',
        },
      },
    ]),
  },
  {
    name: 'agentops-null-stops-search',
    description: 'task.output {"type":"reward","value":null} ends the search before entity.output',
    triplet: [{}],
    spans: spans([
      { id: 'root', name: 'session', start: 0, end: 5 },
      { id: 'a', parent: 'root', name: CHAT, start: 1, end: 2, attrs: chat({ id: 'a' }) },
      {
        id: 'r',
        parent: 'root',
        name: 'reward',
        start: 3,
        end: 3,
        attrs: { ...agentopsReward(null), ...agentopsReward(1, 'agentops.entity.output') },
      },
    ]),
  },
];
