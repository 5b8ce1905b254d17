import { describe, expect, it } from 'vitest';
import { type PrefixBreak, trajectoryRows, transitionRows } from '../src/index.js';
import { call } from './support/calls.js';
import { recordOf } from './support/fixtures.js';
import { exportJsonl } from './support/run.js';
import { SCENARIO } from './support/scenario.js';

describe('transitionRows', () => {
  it('one row per call with ids, all tokens trained', () => {
    const rows = transitionRows([call(0, [1, 2], [3, 4]), call(1, null, [5]), call(2, [6], [7])]);
    expect(rows.map((r) => r.calls.map((c) => c.turn_index))).toEqual([[0], [2]]);
    expect(rows[0]).toMatchObject({
      prompt_ids: [1, 2],
      response_ids: [3, 4],
      response_mask: [1, 1],
    });
  });
});

describe('trajectoryRows (prefix merge)', () => {
  it('merges a call whose prompt extends prompt + response; observation tokens get mask 0, logprob 0', () => {
    const rows = trajectoryRows([
      call(0, [1, 2], [3, 4], [-0.1, -0.2]),
      call(1, [1, 2, 3, 4, 8, 8], [5], [-0.3]),
      call(2, [1, 2, 3, 4, 8, 8, 5], [6, 7], [-0.4, -0.5]),
    ]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toEqual({
      calls: expect.any(Array),
      prompt_ids: [1, 2],
      response_ids: [3, 4, 8, 8, 5, 6, 7],
      response_mask: [1, 1, 0, 0, 1, 1, 1],
      rollout_log_probs: [-0.1, -0.2, 0, 0, -0.3, -0.4, -0.5],
    });
    expect(rows[0]!.calls.map((c) => c.turn_index)).toEqual([0, 1, 2]);
  });

  it('starts a new row when the next prompt is not an extension (e.g. re-tokenized history)', () => {
    const rows = trajectoryRows([
      call(0, [1, 2], [3, 4]),
      call(1, [1, 2, 3, 9, 8], [5]), // 4 re-tokenized as 9
      call(2, [1, 2, 3, 9, 8, 5, 8], [6]),
    ]);
    expect(rows.map((r) => r.calls.map((c) => c.turn_index))).toEqual([[0], [1, 2]]);
    expect(rows[1]).toMatchObject({ prompt_ids: [1, 2, 3, 9, 8], response_mask: [1, 0, 1] });
  });

  it('a prompt shorter than the row so far, or equal to the prompt alone, does not merge', () => {
    const rows = trajectoryRows([
      call(0, [1, 2], [3, 4]),
      call(1, [1, 2, 3], [5]),
      call(2, [1, 2], [6]),
    ]);
    expect(rows).toHaveLength(3);
  });

  it('merges with no observation tokens when the next prompt is exactly prompt + response', () => {
    const rows = trajectoryRows([call(0, [1], [2]), call(1, [1, 2], [3])]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ response_ids: [2, 3], response_mask: [1, 1] });
  });

  it('a call without ids breaks the chain; missing logprobs null the row', () => {
    const rows = trajectoryRows([
      call(0, [1], [2]),
      call(1, null, null),
      call(2, [1, 2, 7], [3], null),
      call(3, [1, 2, 7, 3], [4]),
    ]);
    expect(rows.map((r) => r.calls.map((c) => c.turn_index))).toEqual([[0], [2, 3]]);
    expect(rows[1]!.rollout_log_probs).toBeNull();
  });
});

describe('prefix breaks: first differing position and reason class', () => {
  const msg = (role: string, content: string) => ({ role, content });
  const withMessages = (
    c: ReturnType<typeof call>,
    agent: string,
    prompt: Array<{ role: string; content: string }>,
    reply: string,
  ) => ({
    ...c,
    agent_name: agent,
    prompt_messages: prompt,
    response_message: msg('assistant', reply),
  });
  const sys = msg('system', 'be brief');
  const LOOKUP = {
    type: 'function' as const,
    function: { name: 'lookup', parameters: { type: 'object', properties: {} } },
  };
  const user = msg('user', 'hi');

  it('classifies token drift, a rewritten history, a changed system prompt, another agent and other tools', () => {
    const seen: PrefixBreak[] = [];
    trajectoryRows(
      [
        withMessages(call(0, [1, 2], [3, 4]), 'a', [sys, user], 'yo'),
        // same messages extended, ids re-rendered: token drift at position 3
        withMessages(
          call(1, [1, 2, 3, 9, 8], [5]),
          'a',
          [sys, user, msg('assistant', 'yo'), user],
          'ok',
        ),
        // history rewritten (the earlier reply is gone)
        withMessages(call(2, [1, 2, 7], [6]), 'a', [sys, msg('user', 'summary')], 'ok'),
        // system prompt changed
        withMessages(call(3, [5, 5], [6]), 'a', [msg('system', 'be long'), user], 'ok'),
        // another agent
        { ...withMessages(call(4, [1], [6]), 'b', [user], 'ok'), tools: [LOOKUP] },
        // same agent, the history extended, but no tools offered any more (chat templates render them into the
        // system block): tools changed
        withMessages(call(5, [1, 2, 3, 9], [7]), 'b', [user, msg('assistant', 'ok'), user], 'ok'),
      ],
      (b) => seen.push(b),
    );
    expect(seen).toEqual([
      { turn_index: 1, position: 3, reason: 'token_drift' },
      { turn_index: 2, position: 2, reason: 'history_rewritten' },
      { turn_index: 3, position: 0, reason: 'system_prompt_changed' },
      { turn_index: 4, position: 0, reason: 'different_agent' },
      { turn_index: 5, position: 1, reason: 'tools_changed' },
    ]);
  });

  it('the trajectory summary reports merged calls and breaks', async () => {
    const { summary } = await exportJsonl(SCENARIO.map(recordOf), {
      format: 'verl-trajectory-jsonl',
    });
    expect(summary.merge).toMatchObject({
      merged_calls: expect.any(Number),
      prefix_breaks: expect.any(Number),
    });
    expect(summary.merge!.merged_calls).toBeGreaterThan(0);
    expect(summary.merge!.calls).toBe(summary.merge!.rows + summary.merge!.merged_calls);
    expect(summary.merge!.breaks_by_reason.different_agent).toBeGreaterThan(0);
    const transition = await exportJsonl(SCENARIO.map(recordOf), { format: 'verl-jsonl' });
    expect(transition.summary.merge).toBeUndefined();
  });
});
