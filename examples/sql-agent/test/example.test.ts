import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TracerTraceToTriplet } from '@arclight/adapter';
import { findFinalReward, type Span } from '@arclight/core';
import { SqliteLightningStore } from '@arclight/store';
import { type FixtureLlm, startFixtureLlm } from '@arclight/test-fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approved, parseQuery } from '../src/agent.js';
import { AGENT_MATCH, type ExampleResult, runExample } from '../src/example.js';
import { scriptedSqlModel } from '../src/scripted-model.js';

let llm: FixtureLlm;
let dir: string;
let result: ExampleResult;
let store: SqliteLightningStore;
const spansOf = new Map<string, Span[]>();

beforeAll(async () => {
  llm = await startFixtureLlm({ recordings: false, responders: [scriptedSqlModel()] });
  dir = mkdtempSync(join(tmpdir(), 'sql-agent-'));
  result = await runExample({ fixture: llm, storePath: join(dir, 'store.sqlite'), log: () => {} });
  store = new SqliteLightningStore({ path: result.storePath });
  for (const r of result.rollouts) {
    spansOf.set(r.rolloutId, (await store.querySpans(r.rolloutId)).items);
  }
});

afterAll(async () => {
  await store?.close();
  await llm?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The nearest ancestor's `langchain.chain.type` (the agent the adapter attributes a span to). */
function agentOf(spans: Span[], span: Span): string | undefined {
  const byId = new Map(spans.map((s) => [s.span_id, s]));
  for (let p = byId.get(span.parent_id ?? ''); p; p = byId.get(p.parent_id ?? '')) {
    const agent = p.attributes['langchain.chain.type'];
    if (typeof agent === 'string') return agent;
  }
  return undefined;
}

describe('sql-agent example', () => {
  it('runs every task and reports the summary', () => {
    expect(result.rollouts.map((r) => [r.taskId, r.reward])).toEqual([
      ['artists-count', 1],
      ['top-genres', 1],
      ['brazil-customers', 1],
      ['germany-invoices', 1],
      ['support-agents', 0],
    ]);
    const spans = [...spansOf.values()].reduce((n, s) => n + s.length, 0);
    expect(result.summary).toEqual({ rollouts: 5, spans, llm_calls: 7, reward: 0.8 });
  });

  it('writes exactly one LLM-call span per model call the server answered', () => {
    const all = [...spansOf.values()].flat();
    const calls = all.filter((s) => s.name === 'openai.chat.completion');
    expect(calls).toHaveLength(llm.requests.length);
    expect(result.allLlmCalls).toBe(llm.requests.length);
    // The handler's own model spans do not present themselves as LLM calls.
    const models = all.filter((s) => s.name === 'langchain.chat_model');
    expect(models).toHaveLength(llm.requests.length);
    for (const m of models) {
      expect(Object.keys(m.attributes).filter((k) => k.startsWith('gen_ai.'))).toEqual([]);
    }
  });

  it('nests each call under its node and counts only write_query/rewrite_query with agentMatch', () => {
    const perNode: Record<string, number> = {};
    for (const spans of spansOf.values()) {
      for (const call of spans.filter((s) => s.name === 'openai.chat.completion')) {
        const node = agentOf(spans, call) ?? 'none';
        perNode[node] = (perNode[node] ?? 0) + 1;
        expect(call.attributes.prompt_token_ids).toEqual(expect.any(Array));
        expect(call.attributes.response_token_ids).toEqual(expect.any(Array));
      }
      const tool = spans.find((s) => s.name === 'langchain.tool.sql_db_query');
      expect(tool && agentOf(spans, tool)).toBe('execute_query');
    }
    expect(perNode).toEqual({ write_query: 5, check_query: 7, rewrite_query: 2 });

    const adapter = new TracerTraceToTriplet({ agentMatch: AGENT_MATCH });
    const triplets = [...spansOf.values()].flatMap((spans) => adapter.adapt(spans));
    expect(triplets).toHaveLength(7);
    expect(new Set(triplets.map((t) => t.metadata.agent_name))).toEqual(
      new Set(['write_query', 'rewrite_query']),
    );
    for (const t of triplets) {
      expect((t.prompt as { token_ids: number[] }).token_ids.length).toBeGreaterThan(0);
      expect((t.response as { token_ids: number[] }).token_ids.length).toBeGreaterThan(0);
    }
  });

  it('stores the reward of each rollout and marks its attempt succeeded', async () => {
    for (const r of result.rollouts) {
      expect(findFinalReward(spansOf.get(r.rolloutId)!)).toBe(r.reward);
      const attempt = await store.getLatestAttempt(r.rolloutId);
      expect(attempt?.status).toBe('succeeded');
    }
  });

  it('parses fenced queries and verdicts like the checker states them', () => {
    expect(parseQuery('x\n```sqlite\nSELECT 1;\n```\nthen\n```sql\nSELECT 2;\n```')).toBe(
      'SELECT 2;',
    );
    expect(parseQuery('no fence')).toBeUndefined();
    expect(approved('ok.\n\nTHE QUERY IS CORRECT.')).toBe(true);
    expect(approved('THE QUERY IS CORRECT? no: THE QUERY IS INCORRECT.')).toBe(false);
    expect(approved('THE QUERY IS INCORRECT. On reflection THE QUERY IS CORRECT.')).toBe(true);
  });
});
