import { ChatPromptTemplate } from '@langchain/core/prompts';
import { Annotation, END, START, StateGraph } from '@langchain/langgraph';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureChat, type Harness, startHarness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const State = Annotation.Root({
  question: Annotation<string>(),
  answer: Annotation<string>(),
  turns: Annotation<number>(),
});

/** write_query → check_query → (rewrite_query → check_query)* → END, one model call per write/rewrite. */
function buildGraph(harness: Harness) {
  const model = fixtureChat(harness.llm);
  const prompt = ChatPromptTemplate.fromMessages([
    ['system', 'You write SQL.'],
    ['user', '{question}'],
  ]);
  const ask = async (question: string) => {
    const messages = await prompt.invoke({ question });
    return String((await model.invoke(messages)).content);
  };
  return new StateGraph(State)
    .addNode('write_query', async (s) => ({ answer: await ask(s.question), turns: 1 }))
    .addNode('check_query', async () => ({}))
    .addNode('rewrite_query', async (s) => ({
      answer: await ask(`rewrite: ${s.question}`),
      turns: s.turns + 1,
    }))
    .addEdge(START, 'write_query')
    .addEdge('write_query', 'check_query')
    .addConditionalEdges('check_query', (s) => (s.turns >= 2 ? END : 'rewrite_query'))
    .addEdge('rewrite_query', 'check_query')
    .compile();
}

describe('LangGraph run tree', () => {
  it('writes graph → node → prompt/model spans, nodes carrying their name in langchain.chain.type', async () => {
    const graph = buildGraph(h);
    h.llm.reset();
    const handler = h.handler();
    const { spans, result } = await h.traced(() =>
      graph.invoke({ question: 'How many tracks?' }, { callbacks: [handler] }),
    );
    expect(result.turns).toBe(2);

    expect(spans.roots().map((s) => s.name)).toEqual(['langgraph.graph.LangGraph']);
    const graphSpan = spans.one('langgraph.graph.LangGraph');
    expect(graphSpan.attributes['langchain.chain.type']).toBe('LangGraph');
    expect(spans.children(graphSpan).map((s) => s.name)).toEqual([
      'langgraph.node.write_query',
      'langgraph.node.check_query',
      'langgraph.node.rewrite_query',
      'langgraph.node.check_query',
    ]);
    for (const node of spans.named(/^langgraph\.node\./)) {
      expect(node.attributes['langchain.chain.type']).toBe(
        node.name.slice('langgraph.node.'.length),
      );
      expect(node.attributes['langgraph.node']).toBe(node.attributes['langchain.chain.type']);
      expect(node.attributes['langchain.run.type']).toBe('chain');
    }
    const write = spans.one('langgraph.node.write_query');
    expect(spans.children(write).map((s) => s.name)).toEqual([
      'langchain.prompt.ChatPromptTemplate',
      'openai.chat.completion',
    ]);
    // Helpers inside a node are no agents: calls stay attributed to the node.
    for (const helper of spans.named(/^langchain\.(prompt|chain)\./)) {
      expect(helper.attributes).not.toHaveProperty('langchain.chain.type');
    }
    const calls = spans.named('openai.chat.completion');
    expect(calls).toHaveLength(h.llm.requests.length);
    expect(calls.map((c) => spans.agentOf(c))).toEqual(['write_query', 'rewrite_query']);
    // Every span shares the trace, and every run id is recorded.
    expect(new Set(spans.spans.map((s) => s.trace_id)).size).toBe(1);
    expect(write.attributes['langchain.run.id']).toEqual(expect.any(String));
    expect(spans.children(write)[1]?.attributes['langchain.run.parent_id']).toBe(
      write.attributes['langchain.run.id'],
    );
  });

  it('leaves hidden runs and LangGraph internals out, or shows them without an agent name', async () => {
    const graph = buildGraph(h);
    const hiddenOff = await h.traced(() =>
      graph.invoke({ question: 'q' }, { callbacks: [h.handler()] }),
    );
    expect(hiddenOff.spans.named(/__start__|ChannelWrite|Branch/)).toEqual([]);

    const hiddenOn = await h.traced(() =>
      graph.invoke({ question: 'q' }, { callbacks: [h.handler({ includeHidden: true })] }),
    );
    const start = hiddenOn.spans.one(/__start__/);
    expect(start.attributes['langchain.run.hidden']).toBe(true);
    expect(start.attributes['langchain.run.tags']).toContain('langsmith:hidden');
    expect(start.attributes).not.toHaveProperty('langchain.chain.type');
    expect(hiddenOn.spans.spans.length).toBeGreaterThan(hiddenOff.spans.spans.length);
  });

  it('records inputs and outputs as JSON unless captureContent is false', async () => {
    const graph = buildGraph(h);
    const withContent = await h.traced(() =>
      graph.invoke({ question: 'secret question' }, { callbacks: [h.handler()] }),
    );
    const write = withContent.spans.named('langgraph.node.write_query')[0]!;
    expect(JSON.parse(String(write.attributes['langchain.inputs']))).toMatchObject({
      question: 'secret question',
    });
    expect(JSON.parse(String(write.attributes['langchain.outputs']))).toMatchObject({ turns: 1 });
    const call = withContent.spans.named('openai.chat.completion')[0]!;
    expect(call.attributes['gen_ai.prompt.1.content']).toBe('secret question');

    const without = await h.traced(() =>
      graph.invoke(
        { question: 'secret question' },
        { callbacks: [h.handler({ captureContent: false })] },
      ),
    );
    const text = JSON.stringify(without.spans.spans.map((s) => s.attributes));
    expect(text).not.toContain('secret question');
    expect(text).not.toContain('Fixture answer');
    const bare = without.spans.named('openai.chat.completion')[0]!;
    expect(bare.attributes['gen_ai.prompt.1.role']).toBe('user');
    expect(bare.attributes.prompt_token_ids).toEqual(expect.any(Array));
  });

  it('parents the graph run under the active OpenTelemetry span', async () => {
    const graph = buildGraph(h);
    const otel = h.tracer.getTracer('test');
    const { spans } = await h.traced(() =>
      otel.startActiveSpan('agent-run', async (outer) => {
        try {
          return await graph.invoke({ question: 'q' }, { callbacks: [h.handler()] });
        } finally {
          outer.end();
        }
      }),
    );
    const outer = spans.one('agent-run');
    expect(spans.parent(spans.one('langgraph.graph.LangGraph'))?.span_id).toBe(outer.span_id);
  });
});
