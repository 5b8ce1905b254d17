import type { Span } from '@arclight/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { llmCallDetails } from '../app/model/llm-call.js';
import { spanKind } from '../app/model/span-kind.js';
import { adaptAttempt } from '../app/model/triplets.js';
import { buildWaterfall } from '../app/model/waterfall.js';
import { recordRoomSelectorRollout } from './recorded-trace.js';

let spans: Span[];
beforeAll(async () => {
  spans = await recordRoomSelectorRollout();
});

const llmSpans = () => spans.filter((s) => s.name === 'openai.chat.completion');

describe('trace views of a recorded room-selector rollout', () => {
  it('waterfall: the LLM calls, the tool call and the reward, in time order within the trace', () => {
    const waterfall = buildWaterfall(spans);
    expect(waterfall.error).toBeNull();
    const kinds = waterfall.rows.map((r) => r.kind);
    expect(kinds.filter((k) => k === 'llm')).toHaveLength(2);
    expect(kinds).toContain('reward');
    for (const row of waterfall.rows) {
      expect(row.offset).toBeGreaterThanOrEqual(0);
      expect(row.offset + row.width).toBeLessThanOrEqual(1 + 1e-9);
    }
  });

  it('an LLM call: messages, the tool call, sampling parameters, token ids and counts', () => {
    const first = llmCallDetails(llmSpans()[0]!);
    expect(first.error).toBeNull();
    expect(first.prompt.map((m) => m.role)).toEqual(['system', 'user']);
    expect(first.completion[0]!.tool_calls[0]!.name).toBe('get_rooms_and_availability');
    expect(first.sampling).toMatchObject({ temperature: 0 });
    expect(first.prompt_token_ids).toBeGreaterThan(0);
    expect(first.response_token_ids).toBeGreaterThan(0);
    expect(first.usage.prompt_tokens).toBe(first.prompt_token_ids);
  });

  it('triplets: one per call, token ids present, nothing left out of any export', () => {
    const view = adaptAttempt(spans);
    expect(view.error).toBeNull();
    expect(view.triplets.map((t) => t.span_id)).toEqual(llmSpans().map((s) => s.span_id));
    // The reward (0 or 1 for this task) goes to the call it follows; the first call gets none.
    expect(view.triplets.map((t) => t.triplet.reward === null)).toEqual([true, false]);
    expect([0, 1]).toContain(view.triplets[1]!.triplet.reward);
    for (const t of view.triplets) expect(t.left_out).toEqual([]);
    expect(view.skipped).toEqual([]);
  });

  it('calls the adapter passes over are listed with the reason', () => {
    const [call] = llmSpans();
    const reward = spans.find((s) => spanKind(s) === 'reward')!;
    // An LLM judge inside the reward span, and the same response recorded twice.
    const judge: Span = {
      ...call!,
      span_id: 'a1a1a1a1a1a1a1a1',
      parent_id: reward.span_id,
      attributes: { ...call!.attributes, 'gen_ai.response.id': 'judge-1' },
    };
    const duplicate: Span = { ...call!, span_id: 'b2b2b2b2b2b2b2b2', start_time: call!.end_time };
    const view = adaptAttempt([...spans, judge, duplicate]);
    expect(view.triplets).toHaveLength(2);
    const reasons = new Map(view.skipped.map((s) => [s.span_id, s.reason]));
    expect(reasons.get('a1a1a1a1a1a1a1a1')).toMatch(/inside reward span .*excludeLlmCallInReward/);
    expect(reasons.get('b2b2b2b2b2b2b2b2')).toMatch(/already taken from span .*duplicate/);
  });

  it('a call without token ids or messages is marked left out of the formats that need them', () => {
    const [call] = llmSpans();
    const bare: Span = {
      ...call!,
      attributes: Object.fromEntries(
        Object.entries(call!.attributes).filter(
          ([k]) => !/token_ids|gen_ai\.(prompt|completion)/.test(k),
        ),
      ),
    };
    const view = adaptAttempt([bare]);
    expect(view.triplets[0]!.left_out.map((l) => l.reason)).toEqual([
      'no_token_ids',
      'no_messages',
    ]);
    expect(view.triplets[0]!.left_out[0]!.formats).toContain('verl-parquet');
    expect(view.triplets[0]!.left_out[1]!.formats).toContain('trl-sft');
  });
});
