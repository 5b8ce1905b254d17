import { describe, expect, it } from 'vitest';
import type {
  ArtTrajectoryGroup,
  OpenAiDpoRow,
  OpenAiSftRow,
  TrlDpoRow,
  TrlKtoRow,
  TrlPromptRow,
  TrlSftRow,
} from '../src/index.js';
import { EmptyExportError, type ExportRecord } from '../src/index.js';
import { recordOf, rolloutOf } from './support/fixtures.js';
import { exportJsonl } from './support/run.js';
import { SCENARIO } from './support/scenario.js';

const records = () => SCENARIO.map(recordOf);

describe('trl-sft', () => {
  it('one conversation per row, TRL tool-call arguments as objects, tools in OpenAI schema', async () => {
    const { rows } = await exportJsonl<TrlSftRow>(records(), { format: 'trl-sft' });
    expect(rows).toHaveLength(8); // 3 tool-agent + 2×2 two-agent + r6
    expect(rows[0]!.messages).toEqual([
      { role: 'system', content: 'You answer with the search tool.' },
      { role: 'user', content: 'q1' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_a',
            type: 'function',
            function: { name: 'search', arguments: { query: 'q1 a' } },
          },
        ],
      },
      { role: 'tool', content: 'result for a', tool_call_id: 'call_a' },
      { role: 'assistant', content: 'answer a' },
    ]);
    expect(rows[0]!.tools?.[0]?.function.name).toBe('search');
    expect(rows[3]).toEqual({
      messages: [
        { role: 'system', content: 'Write SQL.' },
        { role: 'user', content: 'q2' },
        { role: 'assistant', content: 'draft good' },
      ],
    });
  });
});

describe('preference formats (best vs worst rollout of a task)', () => {
  it('trl-dpo pairs conversations with the same prompt', async () => {
    const { rows, summary } = await exportJsonl<TrlDpoRow>(records(), { format: 'trl-dpo' });
    expect(rows).toHaveLength(2);
    expect(rows[0]!.prompt.map((m) => m.content)).toEqual([
      'You answer with the search tool.',
      'q1',
    ]);
    expect(rows[0]!.chosen.at(-1)).toEqual({ role: 'assistant', content: 'answer a' });
    expect(rows[0]!.rejected.at(-1)).toEqual({ role: 'assistant', content: 'answer b' });
    // q2: only the writer conversations share a prompt; the checker prompts differ.
    expect(rows[1]).toEqual({
      prompt: [
        { role: 'system', content: 'Write SQL.' },
        { role: 'user', content: 'q2' },
      ],
      chosen: [{ role: 'assistant', content: 'draft good' }],
      rejected: [{ role: 'assistant', content: 'draft bad' }],
    });
    expect(summary.skipped_rollouts).toEqual({
      no_llm_calls: 1,
      not_best_or_worst: 1,
      single_rollout_task: 1,
    });
    expect(summary.task_groups).toBe(2);
  });

  it('conversations with the same prompt pair in order; a pair with the same continuation is dropped', async () => {
    const rollout = (id: string, replies: string[], reward: number): ExportRecord => ({
      rollout: rolloutOf({
        rollout_id: id,
        input: { q: 1 },
        metadata: { task_id: 'task-same-prompt' },
      }),
      attempt_id: `at-${id}`,
      // Every call asks the same question afresh: one conversation per call, all with the same prompt.
      triplets: replies.map((reply, i) => ({
        prompt: {
          raw_content: [
            { role: 'system', content: 'S' },
            { role: 'user', content: 'Q' },
          ],
        },
        response: { raw_content: [{ role: 'assistant', content: reply }] },
        reward: i === replies.length - 1 ? reward : null,
        metadata: {},
      })),
    });
    const input = [rollout('ro-best', ['A', 'B', 'D'], 1), rollout('ro-worst', ['C', 'B'], 0)];
    const { rows } = await exportJsonl<TrlDpoRow>(input, { format: 'trl-dpo' });
    // A takes C (the first), B takes B (the same reply: no pair), D finds none left.
    expect(rows).toEqual([
      {
        prompt: [
          { role: 'system', content: 'S' },
          { role: 'user', content: 'Q' },
        ],
        chosen: [{ role: 'assistant', content: 'A' }],
        rejected: [{ role: 'assistant', content: 'C' }],
      },
    ]);
  });

  it('ties and too-small margins produce no pair: an error naming the reason, no file', async () => {
    const failure = await exportJsonl(records(), { format: 'trl-dpo', minRewardGap: 1 }).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(EmptyExportError);
    const error = failure as EmptyExportError;
    expect(error.summary.skipped_rollouts.no_reward_difference).toBe(5);
    expect(error.message).toMatch(/5 rollout\(s\) skipped, no_reward_difference: .*minRewardGap/);
    expect(error.exitCode).toBe(2);
  });

  it('openai-dpo compares the first reply after the shared prompt', async () => {
    const { rows } = await exportJsonl<OpenAiDpoRow>(records(), { format: 'openai-dpo' });
    expect(rows[0]!.input.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(rows[0]!.input.tools).toHaveLength(1);
    expect(rows[0]!.preferred_output).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_a',
            type: 'function',
            function: { name: 'search', arguments: '{"query":"q1 a"}' },
          },
        ],
      },
    ]);
    expect(rows[0]!.non_preferred_output[0]!.tool_calls![0]!.id).toBe('call_b');
  });

  it('openai-dpo says why when best and worst start with the same reply', async () => {
    // The same tool call first, different final answers: a whole-conversation pair, but no first-reply pair.
    const [toolCall, answer] = SCENARIO[0]!.calls;
    const otherAnswer = { ...answer!, reply: { role: 'assistant' as const, content: 'answer z' } };
    const records = [
      recordOf({
        rollout_id: 'ro-x1',
        input: { question: 'q1' },
        calls: [toolCall!, answer!],
        reward: 1,
      }),
      recordOf({
        rollout_id: 'ro-x2',
        input: { question: 'q1' },
        calls: [toolCall!, otherAnswer],
        reward: 0,
      }),
    ];
    await expect(exportJsonl(records, { format: 'openai-dpo' })).rejects.toThrow(
      /2 rollout\(s\) skipped, identical_first_replies: openai-dpo compares only the first reply/,
    );
    const { summary } = await exportJsonl(records, { format: 'openai-dpo', allowEmpty: true });
    expect(summary.skipped_rollouts.identical_first_replies).toBe(2);
  });

  it('trl-kto labels every conversation by the rollout reward', async () => {
    const { rows } = await exportJsonl<TrlKtoRow>(records(), { format: 'trl-kto' });
    expect(rows.map((r) => r.label)).toEqual([true, false, true, true, true, false, false, false]);
    const strict = await exportJsonl<TrlKtoRow>(records(), {
      format: 'trl-kto',
      rewardThreshold: 1,
    });
    expect(strict.rows.map((r) => r.label)).toEqual([
      true,
      false,
      false,
      true,
      true,
      false,
      false,
      false,
    ]);
    expect(rows[0]!.completion[0]!.role).toBe('assistant');
  });
});

describe('trl-prompt', () => {
  it('one prompt per task with the task input and reward statistics', async () => {
    const { rows } = await exportJsonl<TrlPromptRow>(records(), { format: 'trl-prompt' });
    expect(rows.map((r) => [JSON.parse(r.task_input), r.reward_mean, r.num_rollouts])).toEqual([
      [{ question: 'q1' }, 0.5, 3],
      [{ question: 'q2' }, 0.5, 2],
      [{ question: 'q3' }, 0, 1],
    ]);
    expect(rows[0]!.prompt.map((m) => m.role)).toEqual(['system', 'user']);
  });
});

describe('art', () => {
  it('one TrajectoryGroup per task; generated turns are Choices with logprobs and token ids', async () => {
    const { rows, summary } = await exportJsonl<ArtTrajectoryGroup>(records(), { format: 'art' });
    expect(summary.skipped_triplets.no_logprobs).toBeGreaterThan(0);
    expect(rows.map((g) => g.trajectories.length)).toEqual([3, 2, 1]);
    const [first] = rows[0]!.trajectories;
    expect(first!.reward).toBe(1);
    expect(first!.metadata).toMatchObject({ rollout_id: 'ro-r1', attempt_id: 'at-ro-r1' });
    const kinds = first!.messages_and_choices.map((m) =>
      'finish_reason' in m ? 'choice' : m.role,
    );
    expect(kinds).toEqual(['system', 'user', 'choice', 'tool', 'choice']);
    const choice = first!.messages_and_choices[2] as { [k: string]: unknown };
    expect(choice).toMatchObject({ finish_reason: 'tool_calls', index: 0 });
    expect((choice.logprobs as { content: unknown[] }).content).toHaveLength(
      (choice.token_ids as number[]).length,
    );
    expect(choice.prompt_token_ids).toEqual(expect.any(Array));
    const twoAgents = rows[1]!.trajectories[0]!;
    expect(twoAgents.additional_histories).toHaveLength(1);
    // ART rebuilds the sequence from the logprob tokens: `token_id:<engine id>`, aligned with the ids.
    const content = (choice.logprobs as { content: Array<{ token: string }> }).content;
    expect(content.map((c) => Number(c.token.split(':')[1]))).toEqual(choice.token_ids);
    // Without logprobs ART cannot train the reply: it stays a plain assistant message.
    const noIds = rows[2]!.trajectories[0]!.messages_and_choices[2] as { [k: string]: unknown };
    expect(noIds.role).toBe('assistant');
    expect('logprobs' in noIds).toBe(false);
  });
});

describe('openai-sft', () => {
  it('weights generated assistant turns 1 and assistant turns of the first prompt 0', async () => {
    const record = recordOf({
      rollout_id: 'ro-fewshot',
      input: 'x',
      reward: 1,
      calls: [
        {
          prompt: [
            { role: 'user', content: 'example question' },
            { role: 'assistant', content: 'example answer' },
            { role: 'user', content: 'real question' },
          ],
          reply: { role: 'assistant', content: 'real answer' },
        },
      ],
    });
    const { rows } = await exportJsonl<OpenAiSftRow>([record], { format: 'openai-sft' });
    expect(rows[0]!.messages.map((m) => m.weight)).toEqual([undefined, 0, undefined, 1]);
  });
});
