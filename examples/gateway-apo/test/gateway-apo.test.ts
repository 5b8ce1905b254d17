import { TracerTraceToTriplet } from '@arclight/adapter';
import { describe, expect, it } from 'vitest';
import { trainThroughGateway } from '../src/train.js';

describe('APO through the LLM gateway, agent on plain fetch', () => {
  it('improves the prompt; every LLM call reached the store as a gateway span with token ids', async () => {
    const result = await trainThroughGateway({ quiet: true });
    expect(result.gatewayUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(result.bestPrompt).not.toBe(result.seedPrompt);
    expect(result.bestScore).not.toBeNull();
    expect(result.bestScore!).toBeGreaterThan(result.seedScore ?? 0);

    const rollouts = (await result.store.queryRollouts({})).items;
    expect(rollouts.length).toBeGreaterThan(10);
    const adapter = new TracerTraceToTriplet();
    let calls = 0;
    for (const rollout of rollouts) {
      const spans = (await result.store.querySpans(rollout.rollout_id)).items;
      const llmSpans = spans.filter((s) => s.name === 'openai.chat.completion');
      // The tool turn and the answer turn: two calls per rollout, both through the gateway.
      expect(llmSpans).toHaveLength(2);
      for (const span of llmSpans) {
        expect(span.attributes['arclight.gateway.backend']).toBeTypeOf('string');
        expect((span.attributes.prompt_token_ids as number[]).length).toBeGreaterThan(0);
      }
      calls += llmSpans.length;
      const triplets = adapter.adapt(spans);
      expect(triplets).toHaveLength(2);
      // The reward (emitted after the answer) lands on the last call.
      expect([0, 1]).toContain(triplets[1]!.reward);
    }
    expect(calls).toBe(rollouts.length * 2);
  });
});
