import { LightningTracer } from '@arclight/otel';
import { InMemoryLightningStore } from '@arclight/store';
import { ChatPromptTemplate } from '@langchain/core/prompts';
import { tool } from '@langchain/core/tools';
import { Annotation, START, StateGraph } from '@langchain/langgraph';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ArclightCallbackHandler, instrumentLangChain } from '../src/index.js';
import { fixtureChat, type Harness, SpanTree, startHarness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const State = Annotation.Root({ question: Annotation<string>(), answer: Annotation<string>() });

function oneNodeGraph(harness: Harness) {
  const model = fixtureChat(harness.llm);
  return new StateGraph(State)
    .addNode('write_query', async (s) => ({
      answer: String((await model.invoke(s.question)).content),
    }))
    .addEdge(START, 'write_query')
    .compile();
}

describe('global registration (instrumentLangChain)', () => {
  it('traces graphs and chains invoked without callbacks, once even when a handler is also passed', async () => {
    const { uninstrument } = instrumentLangChain({ tracerProvider: h.tracer.tracerProvider });
    try {
      const graph = oneNodeGraph(h);
      const implicit = await h.traced(() => graph.invoke({ question: 'q1' }));
      expect(implicit.spans.outline()).toBe(
        [
          '',
          'langgraph.graph.LangGraph',
          '  langgraph.node.write_query',
          '    openai.chat.completion',
        ].join('\n'),
      );
      expect(implicit.spans.agentOf(implicit.spans.one('openai.chat.completion'))).toBe(
        'write_query',
      );

      const both = await h.traced(() =>
        graph.invoke({ question: 'q2' }, { callbacks: [h.handler()] }),
      );
      expect(both.spans.spans).toHaveLength(3);

      const chain = ChatPromptTemplate.fromTemplate('Say {word}').pipe(fixtureChat(h.llm));
      const plain = await h.traced(() => chain.invoke({ word: 'hi' }));
      const root = plain.spans.one('langchain.chain.RunnableSequence');
      expect(root.attributes['langchain.chain.type']).toBe('RunnableSequence');
      expect(plain.spans.children(root).map((s) => s.name)).toEqual([
        'langchain.prompt.ChatPromptTemplate',
        'openai.chat.completion',
      ]);
    } finally {
      uninstrument();
    }
    const after = await h.traced(() => oneNodeGraph(h).invoke({ question: 'q3' }));
    expect(after.spans.spans).toEqual([]);
  });
});

describe('explicit handler', () => {
  it('attributes spans to the rollout and attempt of traceContext, in the store', async () => {
    const store = new InMemoryLightningStore();
    const tracer = new LightningTracer({ store, logger: null });
    try {
      const graph = oneNodeGraph(h);
      const handler = new ArclightCallbackHandler({ tracerProvider: tracer.tracerProvider });
      const rollouts = await Promise.all(
        ['a', 'b'].map(async (question) => {
          const rollout = await store.startRollout({ input: { question } });
          const ids = { rolloutId: rollout.rollout_id, attemptId: rollout.attempt.attempt_id };
          await tracer.traceContext(ids, () =>
            graph.invoke({ question }, { callbacks: [handler] }),
          );
          return ids;
        }),
      );
      for (const [i, ids] of rollouts.entries()) {
        const stored = new SpanTree((await store.querySpans(ids.rolloutId)).items);
        expect(stored.spans.every((s) => s.attempt_id === ids.attemptId)).toBe(true);
        expect(stored.spans.map((s) => s.name).sort()).toEqual([
          'langgraph.graph.LangGraph',
          'langgraph.node.write_query',
          'openai.chat.completion',
        ]);
        const call = stored.one('openai.chat.completion');
        expect(call.attributes['gen_ai.prompt.0.content']).toBe(['a', 'b'][i]);
        expect(stored.agentOf(call)).toBe('write_query');
      }
    } finally {
      await tracer.shutdown();
    }
  });

  it('traces a prebuilt ReAct agent: tool spans under the tools node, calls under the agent node', async () => {
    h.llm.reset();
    const lookup = tool(async ({ table }: { table: string }) => `${table}: 3503 rows`, {
      name: 'count_rows',
      description: 'Counts the rows of a table',
      schema: z.object({ table: z.string() }),
    });
    const agent = createReactAgent({
      llm: fixtureChat(h.llm, { model: 'fixture-tools' }),
      tools: [lookup],
    });
    const { spans, result } = await h.traced(() =>
      agent.invoke(
        { messages: [{ role: 'user', content: 'How many tracks?' }] },
        { callbacks: [h.handler()] },
      ),
    );
    expect(String(result.messages.at(-1)?.content)).toContain('count_rows');
    const calls = spans.named('openai.chat.completion');
    expect(calls).toHaveLength(h.llm.requests.length);
    expect(calls).toHaveLength(2);
    expect(calls.map((c) => spans.agentOf(c))).toEqual(['agent', 'agent']);
    const toolSpan = spans.one('langchain.tool.count_rows');
    expect(spans.agentOf(toolSpan)).toBe('tools');
    expect(toolSpan.attributes['langchain.tool.call_id']).toBe(
      calls[0]?.attributes['gen_ai.completion.0.tool_calls.0.id'],
    );
  });
});
