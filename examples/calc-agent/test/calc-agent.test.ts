import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TracerTraceToTriplet } from '@arclight/adapter';
import { getRewardValue } from '@arclight/core';
import { SqliteLightningStore } from '@arclight/store';
import { type FixtureLlm, startFixtureLlm } from '@arclight/test-fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCalcAgent, type Summary } from '../src/run.js';
import { simulatedCalcModel } from '../src/simulated-model.js';
import { loadTasks } from '../src/tasks.js';

describe('calc-agent example', () => {
  const dir = mkdtempSync(join(tmpdir(), 'calc-agent-'));
  const dbPath = join(dir, 'arclight.sqlite');
  const tasks = loadTasks();
  let llm: FixtureLlm;
  let summary: Summary;
  let store: SqliteLightningStore;

  beforeAll(async () => {
    llm = await startFixtureLlm({ recordings: false, responders: [simulatedCalcModel(tasks)] });
    summary = await runCalcAgent({ dbPath, baseUrl: llm.baseUrl, env: {} });
    store = new SqliteLightningStore({ path: dbPath });
  });
  afterAll(async () => {
    await store.close();
    await llm.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('summarizes the run: one LLM call per request the fixture served, varying rewards', () => {
    expect(summary.rollouts).toBe(tasks.length);
    expect(llm.requests).toHaveLength(2 * tasks.length);
    expect(summary.llm_calls).toBe(llm.requests.length);
    expect(summary.reward).toBeCloseTo(4 / 5);
    expect(summary.spans).toBeGreaterThan(summary.llm_calls);
  });

  it('stores each rollout as a succeeded attempt with nested, attributed spans and a reward', async () => {
    const rollouts = (await store.queryRollouts({ sort_by: 'start_time' })).items;
    expect(rollouts).toHaveLength(tasks.length);
    const adapter = new TracerTraceToTriplet({ agentMatch: /^calc$/ });
    const rewards: number[] = [];
    let spanCount = 0;
    for (const rollout of rollouts) {
      expect(rollout.status).toBe('succeeded');
      const spans = (await store.querySpans(rollout.rollout_id)).items;
      spanCount += spans.length;
      const operation = spans.filter((s) => s.name === 'ai.generateText');
      expect(operation).toHaveLength(1);
      expect(operation[0]?.attributes['agent.name']).toBe('calc');
      const calls = spans.filter((s) => s.name === 'openai.chat.completion');
      expect(calls).toHaveLength(2);
      for (const call of calls) expect(call.parent_id).toBe(operation[0]?.span_id);
      const tool = spans.filter((s) => s.name === 'ai.toolCall');
      expect(tool).toHaveLength(1);
      expect(tool[0]?.parent_id).toBe(operation[0]?.span_id);
      expect(tool[0]?.attributes['ai.toolCall.name']).toBe('calculator');

      const triplets = adapter.adapt(spans);
      expect(triplets).toHaveLength(2);
      for (const triplet of triplets) {
        expect(triplet.metadata.agent_name).toBe('calc');
        expect((triplet.prompt as { token_ids: number[] }).token_ids.length).toBeGreaterThan(0);
        expect((triplet.response as { token_ids: number[] }).token_ids.length).toBeGreaterThan(0);
      }
      const rewardValues = spans.map((s) => getRewardValue(s)).filter((v) => v !== null);
      expect(rewardValues).toHaveLength(1);
      rewards.push(rewardValues[0] as number);
      // The adapter matches the reward to one of the rollout's LLM calls.
      expect(triplets.filter((t) => t.reward !== null).map((t) => t.reward)).toEqual(rewardValues);
    }
    expect(spanCount).toBe(summary.spans);
    expect(rewards).toEqual([1, 1, 1, 0, 1]);
  });

  it('sends the calculator the model wrote and the tool result back to the model', () => {
    const bodies = llm.requests.map(
      (r) => r.body as { messages: { role: string; content: unknown }[] },
    );
    const toolTurn = bodies[7]?.messages.at(-1);
    expect(toolTurn).toMatchObject({ role: 'tool', content: '51.6666666667' });
  });
});
