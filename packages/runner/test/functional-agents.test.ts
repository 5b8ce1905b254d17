import { type AttemptedRollout, LLM, PromptTemplate, ProxyLLM } from '@arclight/core';
import { afterEach, describe, expect, it } from 'vitest';
import { LitAgent, llmRollout, promptRollout, Runner, rollout } from '../src/index.js';
import { FAST, MemoryLogger, newStore, newTracer } from './support/harness.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

function setup<T>(agent: LitAgent<T>) {
  const store = newStore();
  const tracer = newTracer(store);
  const logger = new MemoryLogger();
  const runner = new Runner({ agent, store, tracer, logger, ...FAST });
  closers.push(async () => {
    await runner.close();
    await tracer.shutdown();
    await store.close();
  });
  return { store, runner, logger };
}

const proxy = new ProxyLLM({ endpoint: 'http://proxy:4000/v1', model: 'policy', api_key: 'k' });
const plain = new LLM({ endpoint: 'http://llm:8000/v1', model: 'judge' });
const prompt = new PromptTemplate({ template: 'Solve: {q}', engine: 'f-string' });

describe('llmRollout', () => {
  it('passes the first LLM with a ProxyLLM routed to the rollout attempt', async () => {
    const seen: Array<{ llm: LLM; rollout: AttemptedRollout }> = [];
    const { runner } = setup(
      llmRollout<string>(
        async (_task, llm, r) => {
          seen.push({ llm, rollout: r });
          return 1;
        },
        { logger: new MemoryLogger() },
      ),
    );
    const done = await runner.step('q', { resources: { policy: proxy, judge: plain } });
    expect(done.status).toBe('succeeded');
    const { llm, rollout: r } = seen[0]!;
    expect(llm).toBeInstanceOf(LLM);
    expect(llm).not.toBeInstanceOf(ProxyLLM);
    expect(llm.endpoint).toBe(
      `http://proxy:4000/rollout/${r.rollout_id}/attempt/${r.attempt.attempt_id}/v1`,
    );
    expect(llm.model).toBe('policy');
    expect(llm.api_key).toBe('k');
  });

  it('keeps the ProxyLLM with stripProxy: false, and warns about several LLMs', async () => {
    let got: LLM | null = null;
    const logger = new MemoryLogger();
    const { runner } = setup(
      llmRollout(
        async (_task, llm) => {
          got = llm;
        },
        { stripProxy: false, logger },
      ),
    );
    await runner.step('q', { resources: { policy: proxy, judge: plain } });
    expect(got).toBeInstanceOf(ProxyLLM);
    expect(got!.endpoint).toBe('http://proxy:4000/v1');
    expect(logger.lines.some((l) => l.includes("using the first one: 'policy'"))).toBe(true);
  });

  it('fails the attempt when there is no LLM resource (step rethrows)', async () => {
    const { runner, store } = setup(llmRollout(async () => 1));
    await expect(runner.step('q', { resources: { prompt } })).rejects.toThrow(/no LLM resource/);
    const [failed] = (await store.queryRollouts()).items;
    expect(failed?.status).toBe('failed');
    const attempt = await store.getLatestAttempt(failed!.rollout_id);
    expect(attempt?.metadata?.error).toMatchObject({ type: 'ValidationError' });
  });
});

describe('promptRollout and rollout', () => {
  it('promptRollout passes the first prompt template', async () => {
    const { runner, store } = setup(
      promptRollout<{ q: string }>(async (task, template) => {
        return template.format({ q: task.q }) === 'Solve: 2+2' ? 1 : 0;
      }),
    );
    const done = await runner.step({ q: '2+2' }, { resources: { llm: plain, prompt } });
    const spans = (await store.querySpans(done.rollout_id)).items;
    expect(spans.map((s) => s.attributes['agentlightning.reward.0.value'])).toEqual([1]);
  });

  it('rollout gives resources, the rollout and lazy llm/promptTemplate getters', async () => {
    const seen: string[] = [];
    const { runner } = setup(
      rollout<string>(async (task, ctx) => {
        seen.push(task, Object.keys(ctx.resources).join(','), ctx.rollout.mode ?? 'none');
        seen.push(ctx.promptTemplate.template);
        seen.push(ctx.llm.endpoint);
      }),
    );
    await runner.step('t', { resources: { prompt, policy: proxy }, mode: 'val' });
    expect(seen.slice(0, 4)).toEqual(['t', 'prompt,policy', 'val', 'Solve: {q}']);
    expect(seen[4]).toMatch(
      /^http:\/\/proxy:4000\/rollout\/ro-[0-9a-f]+\/attempt\/at-[0-9a-f]+\/v1$/,
    );

    // Only the getters that are read must resolve.
    const { runner: r2 } = setup(rollout(async (_t, ctx) => (ctx.promptTemplate ? 1 : 0)));
    expect((await r2.step('x', { resources: { prompt } })).status).toBe('succeeded');
  });

  it('rejects a non-function', () => {
    expect(() => rollout(42 as never)).toThrow(/rollout: expected a function/);
    expect(() => llmRollout(null as never)).toThrow(/llmRollout/);
  });
});

describe('LitAgent subclasses', () => {
  class ModeAgent extends LitAgent<string> {
    readonly calls: string[] = [];
    override async trainingRollout(task: string) {
      this.calls.push(`train:${task}`);
      return 1;
    }
    override async validationRollout(task: string) {
      this.calls.push(`val:${task}`);
      return 0;
    }
  }

  it('train mode calls trainingRollout, every other mode validationRollout (as upstream)', async () => {
    const agent = new ModeAgent();
    const { runner } = setup(agent);
    await runner.step('a', { mode: 'train' });
    await runner.step('b', { mode: 'val' });
    await runner.step('c', { mode: 'test' });
    await runner.step('d');
    expect(agent.calls).toEqual(['train:a', 'val:b', 'val:c', 'val:d']);
    expect(agent.runner.workerId).toBe('Worker-0');
  });

  it('an agent without rollout() fails its attempts', async () => {
    class Empty extends LitAgent {}
    const { runner } = setup(new Empty());
    await expect(runner.step('x')).rejects.toThrow(/must implement rollout/);
  });
});
