import { findFinalReward, ValidationError } from '@arclight/core';
import { describe, expect, it } from 'vitest';
import { RewardMatchPolicy, TracerTraceToTriplet, TraceToTriplet } from '../src/index.js';
import { llm, makeSpans, rewardAttrs } from './support/build-spans.js';

const CHAT = 'openai.chat.completion';

describe('TraceToTriplet', () => {
  const trace = makeSpans([
    { id: 'root', name: 'session', start: 0, end: 10, attrs: { 'agent.name': 'solver' } },
    { id: 'a', parent: 'root', name: CHAT, start: 1, end: 2, attrs: llm('a') },
    {
      id: 'b',
      parent: 'root',
      name: CHAT,
      start: 3,
      end: 4,
      attrs: llm('b', { 'logprobs.content': '[{"token":"x","logprob":-0.5}]' }),
    },
    {
      id: 'r',
      parent: 'root',
      name: 'agentlightning.annotation',
      start: 5,
      end: 5,
      attrs: rewardAttrs(0.75),
    },
  ]);

  it('builds upstream-shaped triplets: token ids, raw content, metadata, matched reward', () => {
    const [first, second] = new TraceToTriplet().adapt(trace);
    expect(first).toEqual({
      prompt: {
        token_ids: [1, 2],
        raw_content: [{ role: 'user', content: 'prompt a' }],
        image_urls: [],
      },
      response: { token_ids: [3], raw_content: [{ role: 'assistant', content: 'answer a' }] },
      reward: null,
      metadata: { request: null, response: { id: 'a' }, response_id: 'a', agent_name: 'solver' },
    });
    expect(Object.keys(first!)).toEqual(['prompt', 'response', 'reward', 'metadata']);
    expect(Object.keys(first!.metadata)).toEqual([
      'request',
      'response',
      'response_id',
      'agent_name',
    ]);
    expect(second!.reward).toBe(0.75);
    expect(second!.response).toMatchObject({ logprobs: [{ token: 'x', logprob: -0.5 }] });
  });

  it('is also exported under upstream’s name', () => {
    expect(new TracerTraceToTriplet()).toBeInstanceOf(TraceToTriplet);
    expect(new TracerTraceToTriplet().adapt(trace)).toEqual(new TraceToTriplet().adapt(trace));
  });

  it('accepts RegExp or string patterns and filters by agent', () => {
    expect(new TraceToTriplet({ agentMatch: /^sol/ }).adapt(trace)).toHaveLength(2);
    expect(new TraceToTriplet({ agentMatch: 'other' }).adapt(trace)).toHaveLength(0);
    expect(new TraceToTriplet({ llmCallMatch: /chat/g }).adapt(trace)).toHaveLength(2);
    expect(new TraceToTriplet({ llmCallMatch: 'nothing' }).adapt(trace)).toHaveLength(0);
  });

  it('matches rewards per policy', () => {
    const nested = makeSpans([
      { id: 'root', name: 'session', start: 0, end: 10 },
      { id: 'step', parent: 'root', name: 'step', start: 0, end: 3 },
      { id: 'a', parent: 'step', name: CHAT, start: 1, end: 2, attrs: llm('a') },
      {
        id: 'r',
        parent: 'root',
        name: 'agentlightning.annotation',
        start: 5,
        end: 5,
        attrs: rewardAttrs(1),
      },
    ]);
    const reward = (policy: RewardMatchPolicy) =>
      new TraceToTriplet({ rewardMatch: policy }).adapt(nested).map((t) => t.reward);
    expect(reward(RewardMatchPolicy.FIRST_OCCURRENCE)).toEqual([1]);
    expect(reward(RewardMatchPolicy.FIRST_SIBLING)).toEqual([null]);
  });

  it('skips calls without token ids on request', () => {
    const spans = makeSpans([
      { id: 'root', name: 'session', start: 0, end: 10 },
      {
        id: 'a',
        parent: 'root',
        name: CHAT,
        start: 1,
        end: 2,
        attrs: llm('a', { prompt_token_ids: [] }),
      },
      { id: 'b', parent: 'root', name: CHAT, start: 3, end: 4, attrs: llm('b') },
    ]);
    expect(new TraceToTriplet().adapt(spans)).toHaveLength(2);
    const kept = new TraceToTriplet({ skipEmptyTokenSpans: true }).adapt(spans);
    expect(kept.map((t) => (t.metadata as { response_id: string }).response_id)).toEqual(['b']);
  });

  it('rejects invalid options and empty traces with ValidationError', () => {
    expect(() => new TraceToTriplet({ rewardMatch: 'latest' as RewardMatchPolicy })).toThrow(
      /rewardMatch/,
    );
    expect(() => new TraceToTriplet({ llmCallMatch: '(' })).toThrow(/llmCallMatch/);
    expect(() => new TraceToTriplet().adapt([])).toThrow(ValidationError);
  });

  it('exposes the repaired tree it works on', () => {
    const flat = makeSpans([
      { id: 'agent', name: 'agent', start: 0, end: 10, attrs: { 'agent.name': 'solver' } },
      { id: 'a', name: CHAT, start: 1, end: 2, attrs: llm('a') },
    ]);
    const adapter = new TraceToTriplet({ agentMatch: 'solver' });
    expect(
      adapter
        .buildTree(flat)
        .findId('agent')!
        .children.map((c) => c.id),
    ).toEqual(['a']);
    expect(adapter.adapt(flat)).toHaveLength(1);
    expect(
      new TraceToTriplet({ agentMatch: 'solver', repairHierarchy: false }).adapt(flat),
    ).toHaveLength(0);
  });

  it('accepts OpenTelemetry ReadableSpans, converted as upstream does', () => {
    const readable = (
      spanId: string,
      name: string,
      attributes: Record<string, unknown>,
      at: number,
    ) => ({
      name,
      spanContext: () => ({ traceId: '0af7651916cd43dd8448eb211c80319c', spanId, traceFlags: 1 }),
      parentSpanContext: undefined,
      startTime: [at, 0] as [number, number],
      endTime: [at + 1, 0] as [number, number],
      status: { code: 0 },
      attributes: attributes as never,
      events: [],
      links: [],
      resource: { attributes: {} },
    });
    const [triplet] = new TraceToTriplet().adapt([
      readable('00000000000000a1', CHAT, llm('a'), 100),
      readable('00000000000000b2', 'agentlightning.annotation', rewardAttrs(0.5), 200),
    ]);
    expect(triplet).toMatchObject({
      reward: 0.5,
      prompt: { token_ids: [1, 2] },
      metadata: { response_id: 'a' },
    });
  });

  it('findFinalReward reads the last reward span', () => {
    expect(findFinalReward(trace)).toBe(0.75);
    expect(findFinalReward(trace.slice(0, 3))).toBeNull();
  });
});
