import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Triplet } from '@arclight/core';
import { describe, expect, it } from 'vitest';
import { type ExportRecord, FORMATS, prepareRollout, writeExport } from '../src/index.js';
import { rolloutOf } from './support/fixtures.js';
import { tempDir } from './support/run.js';
import { TRICKY_STRINGS } from './support/strings.js';

const art = FORMATS.find((f) => f.name === 'art')!;

/** One task of two rollouts whose messages, tool calls and logprob tokens use every tricky string. */
function trickyRecords(): ExportRecord[] {
  return [0, 1].map((r) => {
    const triplets: Triplet[] = TRICKY_STRINGS.map((text, c) => {
      const withIds = (c + r) % 2 === 0;
      const tokens = [text, `${text}!`, 'x'];
      return {
        prompt: {
          token_ids: [1, 2, 3 + c],
          raw_content: [
            { role: 'system', content: text },
            { role: 'user', content: `q "${c}" ${text}` },
          ],
        },
        response: {
          token_ids: withIds ? [-1, 151643, 2 ** 40] : [],
          raw_content: [
            {
              role: 'assistant',
              content: c % 3 === 0 ? null : text,
              finish_reason: c % 2 ? 'stop' : 'weird',
              tool_calls:
                c % 3 === 0 ? [{ id: `call_${c}`, name: 'run', arguments: { text } }] : undefined,
            },
          ],
          logprobs: tokens.map((token, i) => ({
            token,
            logprob: [-0.25, -1.2345678901234567, 0][i],
            bytes: i === 1 ? [...Buffer.from(token)] : null,
            top_logprobs: [],
          })),
        },
        reward: c === TRICKY_STRINGS.length - 1 ? r : null,
        metadata: { agent_name: text, response_id: `id-${r}-${c}` },
      };
    });
    return {
      rollout: rolloutOf({ rollout_id: `ro-${r}`, input: { q: 1 }, metadata: { task_id: 'task' } }),
      attempt_id: `at-${r}`,
      triplets,
    };
  });
}

describe('art line writer', () => {
  it('writes exactly JSON.stringify(group) for tricky strings, token strings and ids', async () => {
    const records = trickyRecords();
    const out = join(tempDir(), 'art.jsonl');
    await writeExport(records, { format: 'art', out });
    const skip = { rollout: () => {}, triplet: () => {} };
    const options = { minReward: null, rewardThreshold: 0.5, minRewardGap: 0 };
    const group = records.map((r) => prepareRollout(r));
    const expected = art
      .rows(group as never, options, skip)
      .map((row) => `${JSON.stringify(row)}\n`);
    const text = readFileSync(out, 'utf8');
    expect(text).toBe(expected.join(''));

    // The per-token entries are ART's ChatCompletionTokenLogprob objects: engine ids when the call has them,
    // else the recorded token strings.
    type History = { messages_and_choices: Array<{ logprobs?: { content: unknown[] } }> };
    const line = JSON.parse(text.split('\n')[0]!) as {
      trajectories: Array<History & { additional_histories: History[] }>;
    };
    const first = line.trajectories[0]!;
    const choices = [first, ...first.additional_histories].flatMap((h) =>
      h.messages_and_choices.filter((m) => m.logprobs),
    );
    expect(choices).toHaveLength(TRICKY_STRINGS.length);
    expect(choices[0]!.logprobs!.content).toEqual([
      { token: 'token_id:-1', logprob: -0.25, bytes: null, top_logprobs: [] },
      { token: 'token_id:151643', logprob: -1.2345678901234567, bytes: [33], top_logprobs: [] },
      { token: 'token_id:1099511627776', logprob: 0, bytes: null, top_logprobs: [] },
    ]);
    for (const c of [1, 3, 5]) {
      const token = `${TRICKY_STRINGS[c]}!`;
      expect(choices[c]!.logprobs!.content[1]).toEqual({
        token,
        logprob: -1.2345678901234567,
        bytes: [...Buffer.from(token)],
        top_logprobs: [],
      });
    }
  });
});
