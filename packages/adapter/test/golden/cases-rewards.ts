import { ANNOTATION, agentopsReward, CHAT, chat, reward, spans } from './spans.ts';
import type { GoldenCase } from './types.ts';

const BOTH_POLICIES = [{}, { reward_match: 'first_sibling' }];

/** Golden traces about reward encodings and matching. */
export const rewardCases: GoldenCase[] = [
  {
    name: 'rewards-before-after',
    description:
      'Rewards before any call, at a call end, during a call, after calls (fall back to earlier calls), in every encoding',
    triplet: BOTH_POLICIES,
    spans: spans([
      { id: 'root', name: 'session', start: 0, end: 30 },
      { id: 'r0', parent: 'root', name: ANNOTATION, start: 0.5, end: 0.5, attrs: reward(9) },
      { id: 'a', parent: 'root', name: CHAT, start: 1, end: 2, attrs: chat({ id: 'a' }) },
      {
        id: 'r1',
        parent: 'root',
        name: ANNOTATION,
        start: 2,
        end: 2,
        attrs: reward('0.5', ['style', 0.1]),
      },
      { id: 'b', parent: 'root', name: CHAT, start: 3, end: 6, attrs: chat({ id: 'b' }) },
      {
        id: 'r2',
        parent: 'root',
        name: 'reward_fn',
        start: 4,
        end: 4,
        attrs: agentopsReward(0.7, 'agentops.entity.output'),
      },
      { id: 'c', parent: 'root', name: CHAT, start: 7, end: 8, attrs: chat({ id: 'c' }) },
      { id: 'r3', parent: 'root', name: 'reward_fn', start: 9, end: 9, attrs: agentopsReward(3) },
      { id: 'r4', parent: 'root', name: ANNOTATION, start: 10, end: 10, attrs: { reward: 1 } },
      { id: 'r5', parent: 'root', name: ANNOTATION, start: 11, end: 11, attrs: reward(true) },
      { id: 'r6', parent: 'root', name: ANNOTATION, start: 12, end: 12, attrs: reward(0.125) },
    ]),
  },
  {
    name: 'first-sibling-vs-occurrence',
    description:
      'Calls in different agent subtrees; a reward next to its call, one under the root, one nested deeper',
    triplet: BOTH_POLICIES,
    spans: spans([
      { id: 'root', name: 'session', start: 0, end: 40 },
      { id: 'x', parent: 'root', name: 'agent', start: 0, end: 10, attrs: { 'agent.name': 'x' } },
      { id: 'rx0', parent: 'x', name: ANNOTATION, start: 0.5, end: 0.5, attrs: reward(-1) },
      { id: 'a', parent: 'x', name: CHAT, start: 1, end: 2, attrs: chat({ id: 'a' }) },
      { id: 'y', parent: 'root', name: 'agent', start: 11, end: 20, attrs: { 'agent.name': 'y' } },
      { id: 'b', parent: 'y', name: CHAT, start: 12, end: 13, attrs: chat({ id: 'b' }) },
      { id: 'ry', parent: 'y', name: ANNOTATION, start: 14, end: 14, attrs: reward(0.6) },
      { id: 'step', parent: 'y', name: 'step', start: 15, end: 19 },
      { id: 'c', parent: 'step', name: CHAT, start: 15.5, end: 16, attrs: chat({ id: 'c' }) },
      { id: 'rc', parent: 'step', name: ANNOTATION, start: 17, end: 17, attrs: reward(0.2) },
      { id: 'rroot', parent: 'root', name: ANNOTATION, start: 21, end: 21, attrs: reward(1) },
      { id: 'rroot2', parent: 'root', name: ANNOTATION, start: 22, end: 22, attrs: reward(2) },
    ]),
  },
  {
    name: 'time-ties',
    description:
      'Equal start times: the stable sort keeps depth-first order; reward at exactly a call end',
    triplet: BOTH_POLICIES,
    spans: spans([
      { id: 'root', name: 'session', start: 0, end: 10 },
      { id: 'a', parent: 'root', name: CHAT, start: 1, end: 2, attrs: chat({ id: 'a' }) },
      { id: 'b', parent: 'root', name: CHAT, start: 1, end: 2, attrs: chat({ id: 'b' }) },
      { id: 'r1', parent: 'root', name: ANNOTATION, start: 2, end: 2, attrs: reward(0.1) },
      { id: 'r2', parent: 'root', name: ANNOTATION, start: 2, end: 2, attrs: reward(0.2) },
      { id: 'r3', parent: 'root', name: ANNOTATION, start: 2, end: 2, attrs: reward(0.3) },
    ]),
  },
  {
    name: 'legacy-rewards',
    description:
      'v0.2 `reward` attribute (only on annotation spans), AgentOps payloads with a null value or a non-float value',
    triplet: BOTH_POLICIES,
    spans: spans([
      { id: 'root', name: 'session', start: 0, end: 30 },
      { id: 'a', parent: 'root', name: CHAT, start: 1, end: 2, attrs: chat({ id: 'a' }) },
      {
        id: 'v02-wrong-name',
        parent: 'root',
        name: 'agentlightning.reward',
        start: 3,
        end: 3,
        attrs: { reward: 0.9 },
      },
      {
        id: 'null-value',
        parent: 'root',
        name: 'reward_fn',
        start: 4,
        end: 4,
        attrs: { ...agentopsReward(null), ...agentopsReward(0.4, 'agentops.entity.output') },
      },
      {
        id: 'not-reward',
        parent: 'root',
        name: 'task',
        start: 5,
        end: 5,
        attrs: { 'agentops.task.output': '{"type": "text", "value": 1}' },
      },
      {
        id: 'not-json',
        parent: 'root',
        name: 'task',
        start: 5.5,
        end: 5.5,
        attrs: { 'agentops.task.output': 'plain text', 'agentops.entity.output': 'NaN-ish' },
      },
      { id: 'v02', parent: 'root', name: ANNOTATION, start: 6, end: 6, attrs: { reward: 2 } },
      { id: 'b', parent: 'root', name: CHAT, start: 7, end: 8, attrs: chat({ id: 'b' }) },
      {
        id: 'v02-text',
        parent: 'root',
        name: ANNOTATION,
        start: 9,
        end: 9,
        attrs: { reward: 'high' },
      },
      { id: 'c', parent: 'root', name: CHAT, start: 10, end: 11, attrs: chat({ id: 'c' }) },
      {
        id: 'ao-nan',
        parent: 'root',
        name: 'reward_fn',
        start: 12,
        end: 12,
        attrs: { 'agentops.task.output': '{"type": "reward", "value": 2.5e-1}' },
      },
    ]),
  },
];
