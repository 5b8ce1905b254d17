import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TracerTraceToTriplet } from '@arclight/adapter';
import { getRewardValue } from '@arclight/core';
import { SqliteLightningStore } from '@arclight/store';
import { type FixtureLlm, startFixtureLlm } from '@arclight/test-fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPage, search } from '../src/corpus.js';
import { runResearchAgent, type Summary } from '../src/run.js';
import { simulatedResearchModel } from '../src/simulated-model.js';
import { TASKS } from '../src/tasks.js';

interface Ids {
  token_ids: number[];
}

describe('research-agent example', () => {
  const dir = mkdtempSync(join(tmpdir(), 'research-agent-'));
  const dbPath = join(dir, 'arclight.sqlite');
  let llm: FixtureLlm;
  let summary: Summary;
  let store: SqliteLightningStore;

  beforeAll(async () => {
    llm = await startFixtureLlm({
      recordings: false,
      tokenizer: 'bytes',
      responders: [simulatedResearchModel(TASKS)],
    });
    summary = await runResearchAgent({ dbPath, baseUrl: llm.baseUrl, env: {} });
    store = new SqliteLightningStore({ path: dbPath });
  });
  afterAll(async () => {
    await store.close();
    await llm.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the tools: search ranks pages by shared words, open_page returns a page or names the bad id', () => {
    expect(search('Ada Okafor')[0]).toEqual({ id: 'ada-okafor', title: 'Ada Okafor' });
    expect(search('zzz')).toEqual([]);
    expect(openPage('velmont')).toMatchObject({ title: 'Vélmont' });
    expect(openPage('nope')).toEqual({ error: 'no page with id "nope"' });
  });

  it('runs two samples per question: the careful one answers right in 5 calls, the hasty one wrong in 3', async () => {
    expect(summary.rollouts).toBe(2 * TASKS.length);
    expect(summary.llm_calls).toBe(llm.requests.length);
    expect(summary.llm_calls).toBe((5 + 3) * TASKS.length);
    expect(summary.tool_calls).toBe((4 + 2) * TASKS.length);
    expect(summary.reward).toBe(0.5);
    const rollouts = (await store.queryRollouts({})).items;
    const byTask = new Map<string, typeof rollouts>();
    for (const r of rollouts) {
      const task = String(r.metadata?.task_id);
      byTask.set(task, [...(byTask.get(task) ?? []), r]);
    }
    expect([...byTask.keys()].sort()).toEqual(TASKS.map((t) => t.id).sort());
    for (const group of byTask.values()) {
      expect(group.map((r) => r.status)).toEqual(['succeeded', 'succeeded']);
      const rewards = await Promise.all(
        group.map(async (r) => {
          const spans = (await store.querySpans(r.rollout_id)).items;
          return spans.map(getRewardValue).find((v) => v !== null);
        }),
      );
      expect(rewards.sort()).toEqual([0, 1]);
    }
  });

  it('records token ids (bytes vocabulary) and logprobs, and every prompt extends the previous prompt + reply', async () => {
    const adapter = new TracerTraceToTriplet();
    const rollouts = (await store.queryRollouts({})).items;
    for (const rollout of rollouts) {
      const spans = (await store.querySpans(rollout.rollout_id)).items;
      const llmSpans = spans.filter((s) => s.name === 'openai.chat.completion');
      for (const span of llmSpans) {
        expect(JSON.parse(String(span.attributes['logprobs.content']))).toHaveLength(
          (span.attributes.response_token_ids as number[]).length,
        );
      }
      const triplets = adapter.adapt(spans);
      expect(triplets.length).toBeGreaterThanOrEqual(3);
      for (let i = 1; i < triplets.length; i++) {
        const before = [
          ...(triplets[i - 1]!.prompt as Ids).token_ids,
          ...(triplets[i - 1]!.response as Ids).token_ids,
        ];
        const prompt = (triplets[i]!.prompt as Ids).token_ids;
        expect(prompt.slice(0, before.length)).toEqual(before);
        expect(prompt.length).toBeGreaterThan(before.length);
        for (const id of prompt) expect(id).toBeLessThan(llm.tokenizer.vocabSize);
      }
    }
  });
});
