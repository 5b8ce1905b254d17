import { describe, expect, it } from 'vitest';
import { trajectoryRows, transitionRows } from '../src/index.js';
import { call } from './support/calls.js';

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
