import { describe, expect, it } from 'vitest';
import type { TripletLine, TrlSftTokensRow, VerlRow } from '../src/index.js';
import { recordOf } from './support/fixtures.js';
import { exportJsonl } from './support/run.js';
import { SCENARIO } from './support/scenario.js';

const records = () => SCENARIO.map(recordOf);

describe('triplets (native)', () => {
  it('one line per LLM call, rollout reward on every call, the matched reward on the last', async () => {
    const { rows, summary } = await exportJsonl<TripletLine>(records(), { format: 'triplets' });
    expect(rows).toHaveLength(12);
    const r1 = rows.filter((r) => r.rollout_id === 'ro-r1');
    expect(r1.map((r) => [r.turn_index, r.reward, r.call_reward])).toEqual([
      [0, 1, null],
      [1, 1, 1],
    ]);
    expect(r1[0]).toMatchObject({ attempt_id: 'at-ro-r1', mode: 'train', agent_name: 'solver' });
    expect(r1[0]!.response.logprobs).toHaveLength(r1[0]!.response.token_ids.length);
    expect(rows.filter((r) => r.rollout_id === 'ro-r6').map((r) => r.prompt.token_ids)).toEqual([
      [],
      [],
    ]);
    expect(summary).toMatchObject({ rollouts: 7, rollouts_exported: 6, triplets: 12, rows: 12 });
    expect(summary.skipped_rollouts).toEqual({ no_llm_calls: 1 });
  });
});

describe('verl rows', () => {
  it('transition: one row per call with ids, uid = task, all tokens trained', async () => {
    const { rows, summary } = await exportJsonl<VerlRow>(records(), { format: 'verl-jsonl' });
    expect(rows).toHaveLength(10);
    const uids = (ids: string[]) =>
      new Set(rows.filter((r) => ids.includes(r.rollout_id)).map((r) => r.uid));
    expect(uids(['ro-r1', 'ro-r2', 'ro-r3']).size).toBe(1);
    expect(uids(['ro-r4', 'ro-r5']).size).toBe(1);
    expect([...uids(['ro-r1'])][0]).not.toBe([...uids(['ro-r4'])][0]);
    for (const row of rows) {
      expect(row.level).toBe('transition');
      expect(row.response_mask.every((m) => m === 1)).toBe(true);
      expect(row.data_id).toBe(row.uid);
    }
    expect(summary.skipped_rollouts).toEqual({ no_llm_calls: 1, no_token_ids: 1 });
    expect(summary.skipped_triplets).toEqual({ no_token_ids: 2 });
  });

  it('trajectory: the tool agent merges into one row per rollout, the two agents stay apart', async () => {
    const { rows } = await exportJsonl<VerlRow>(records(), { format: 'verl-trajectory-jsonl' });
    expect(rows.map((r) => [r.rollout_id, r.turn_indices])).toEqual([
      ['ro-r1', [0, 1]],
      ['ro-r2', [0, 1]],
      ['ro-r3', [0, 1]],
      ['ro-r4', [0]],
      ['ro-r4', [1]],
      ['ro-r5', [0]],
      ['ro-r5', [1]],
    ]);
    const merged = rows[0]!;
    const zeros = merged.response_mask.filter((m) => m === 0).length;
    expect(zeros).toBeGreaterThan(0);
    expect(merged.rollout_log_probs!.filter((_lp, i) => merged.response_mask[i] === 0)).toEqual(
      new Array(zeros).fill(0),
    );
    expect(rows.find((r) => r.rollout_id === 'ro-r3')!.reward).toBe(0.5);
  });
});

describe('trl-sft-tokens', () => {
  it('input_ids = prompt + merged response; assistant_masks 0 on prompt and observations', async () => {
    const { rows: verl } = await exportJsonl<VerlRow>(records(), {
      format: 'verl-trajectory-jsonl',
    });
    const { rows } = await exportJsonl<TrlSftTokensRow>(records(), { format: 'trl-sft-tokens' });
    expect(rows).toHaveLength(verl.length);
    rows.forEach((row, i) => {
      expect(row.input_ids).toEqual([...verl[i]!.prompt_ids, ...verl[i]!.response_ids]);
      expect(row.assistant_masks).toEqual([
        ...verl[i]!.prompt_ids.map(() => 0),
        ...verl[i]!.response_mask,
      ]);
    });
  });

  it('minReward keeps only good rollouts', async () => {
    const { rows, summary } = await exportJsonl(records(), {
      format: 'trl-sft-tokens',
      minReward: 1,
    });
    expect(rows).toHaveLength(3); // r1 (one merged row) + r4 (two agents)
    expect(summary.skipped_rollouts.below_min_reward).toBe(4);
  });
});
