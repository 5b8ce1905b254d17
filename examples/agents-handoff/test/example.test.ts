import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getRewardValue, type Span } from '@arclight/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ExampleResult, main, runExample } from '../src/example.js';
import { TASKS } from '../src/tasks.js';

const dir = mkdtempSync(join(tmpdir(), 'agents-handoff-'));
const offlineEnv = { ARCLIGHT_DB: join(dir, 'arclight.sqlite') };
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function parentOf(spans: readonly Span[], span: Span): Span | undefined {
  return spans.find((s) => s.span_id === span.parent_id);
}

function agentOf(spans: readonly Span[], span: Span): unknown {
  for (let s: Span | undefined = span; s; s = parentOf(spans, s)) {
    if (s.attributes['agent.name'] !== undefined) return s.attributes['agent.name'];
  }
  return undefined;
}

describe('the agents-handoff example (offline, fixture server)', () => {
  let result: ExampleResult;
  beforeAll(async () => {
    result = await runExample({ env: offlineEnv });
  });

  it('runs every task to a correct answer', () => {
    expect(result.rollouts.map((r) => r.task.question)).toEqual(TASKS.map((t) => t.question));
    expect(result.rollouts.map((r) => r.answer)).toEqual([
      'The answer is 391.',
      'The answer is 12.',
      'Invoice INV-1002 is open: $245.00 is still due.',
      'Invoice INV-1001 has been paid in full.',
    ]);
    expect(result.summary.reward).toBe(1);
  });

  it('records exactly one LLM-call span per model call the fixture served', () => {
    const calls = result.rollouts.flatMap((r) =>
      r.spans.filter((s) => s.name === 'openai.chat.completion'),
    );
    expect(result.servedRequests).toBe(12);
    expect(calls).toHaveLength(result.servedRequests!);
    expect(result.summary.llm_calls).toBe(result.servedRequests);
    for (const call of calls) {
      expect((call.attributes.prompt_token_ids as number[]).length).toBe(
        call.attributes['gen_ai.usage.prompt_tokens'],
      );
      expect(Array.isArray(call.attributes.response_token_ids)).toBe(true);
    }
  });

  it('nests the calls under their agents: triage, then the specialist with its tool', () => {
    const expectedSpecialists = [
      'math_specialist',
      'math_specialist',
      'billing_specialist',
      'billing_specialist',
    ];
    result.rollouts.forEach((rollout, i) => {
      const specialist = expectedSpecialists[i];
      const calls = rollout.spans
        .filter((s) => s.name === 'openai.chat.completion')
        .sort((a, b) => a.start_time! - b.start_time!);
      expect(calls.map((c) => agentOf(rollout.spans, c))).toEqual([
        'triage',
        specialist,
        specialist,
      ]);
      expect(calls.every((c) => parentOf(rollout.spans, c)?.name === 'openai_agents.turn')).toBe(
        true,
      );
      expect(rollout.triplets.map((t) => t.metadata.agent_name)).toEqual([
        'triage',
        specialist,
        specialist,
      ]);

      const handoff = rollout.spans.find((s) => s.name === 'openai_agents.handoff');
      expect(handoff?.attributes['openai_agents.handoff.to_agent']).toBe(specialist);
      const fn = rollout.spans.find((s) => s.name === 'openai_agents.function');
      expect(agentOf(rollout.spans, fn!)).toBe(specialist);
      expect(fn?.attributes['tool.name']).toBe(i < 2 ? 'calculator' : 'lookup_invoice');
      // One SDK trace per rollout, rooted in one span.
      const roots = rollout.spans.filter((s) => s.parent_id === null);
      expect(roots.map((s) => s.name).sort()).toEqual([
        'agentlightning.annotation',
        'openai_agents.trace',
      ]);
    });
  });

  it('records on every LLM call the tools its request offered (handoffs as transfer_to_*)', () => {
    result.rollouts.forEach((rollout, i) => {
      const tool = i < 2 ? 'calculator' : 'lookup_invoice';
      const offered = rollout.triplets.map(
        (t) =>
          (t.metadata.request as { functions?: { name: string; parameters?: unknown }[] })
            .functions,
      );
      expect(offered.map((functions) => functions?.map((f) => f.name))).toEqual([
        ['transfer_to_math_specialist', 'transfer_to_billing_specialist'],
        [tool],
        [tool],
      ]);
      // The parameters' JSON schema, as JSON text (as every integration writes it).
      expect(JSON.parse(String(offered[1]![0]!.parameters))).toMatchObject({ type: 'object' });
    });
  });

  it('stores the reward of each rollout and matches it to the last call', () => {
    for (const rollout of result.rollouts) {
      const rewards = rollout.spans.map((s) => getRewardValue(s)).filter((v) => v !== null);
      expect(rewards).toEqual([1]);
      expect(rollout.triplets.at(-1)?.reward).toBe(1);
    }
  });

  it('main() prints the one summary line', async () => {
    const lines: string[] = [];
    const summary = await main({ env: offlineEnv, print: (line) => lines.push(line) });
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toEqual(summary);
    expect(summary).toEqual({ rollouts: 4, spans: result.summary.spans, llm_calls: 12, reward: 1 });
    expect(Object.keys(summary)).toEqual(['rollouts', 'spans', 'llm_calls', 'reward']);
  });
});
