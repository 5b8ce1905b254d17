import { awaitAllCallbacks } from '@langchain/core/callbacks/promises';
import { Document } from '@langchain/core/documents';
import { RunnableLambda } from '@langchain/core/runnables';
import { FakeRetriever } from '@langchain/core/utils/testing';
import { Annotation, START, StateGraph } from '@langchain/langgraph';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const State = Annotation.Root({ query: Annotation<string>(), context: Annotation<string>() });

function retrievalGraph(harness: Harness) {
  const retriever = new FakeRetriever({
    output: [new Document({ pageContent: 'Track has 3503 rows', metadata: { table: 'Track' } })],
  });
  const tracer = harness.tracer.getTracer('app');
  return new StateGraph(State)
    .addNode('retrieve', async (s) => {
      const docs = await retriever.invoke(s.query);
      // A span of the application's own, started inside the node's body.
      tracer.startSpan('app.lookup').end();
      return { context: docs.map((d) => d.pageContent).join('\n') };
    })
    .addEdge(START, 'retrieve')
    .compile();
}

describe('parenting', () => {
  it('nests retriever runs and spans started inside a node body under the node', async () => {
    const { spans } = await h.traced(() =>
      retrievalGraph(h).invoke({ query: 'tracks' }, { callbacks: [h.handler()] }),
    );
    const node = spans.one('langgraph.node.retrieve');
    expect(spans.children(node).map((s) => s.name)).toEqual([
      'langchain.retriever.FakeRetriever',
      'app.lookup',
    ]);
    const retriever = spans.one('langchain.retriever.FakeRetriever');
    expect(JSON.parse(String(retriever.attributes['langchain.inputs']))).toEqual({
      query: 'tracks',
    });
    expect(String(retriever.attributes['langchain.outputs'])).toContain('Track has 3503 rows');
  });

  it('without propagateContext, spans started inside a node body do not join the run tree', async () => {
    const { spans } = await h.traced(() =>
      retrievalGraph(h).invoke(
        { query: 'tracks' },
        { callbacks: [h.handler({ propagateContext: false })] },
      ),
    );
    const node = spans.one('langgraph.node.retrieve');
    expect(spans.children(node).map((s) => s.name)).toEqual(['langchain.retriever.FakeRetriever']);
    expect(spans.parent(spans.one('app.lookup'))).toBeUndefined();
  });

  it('parents runs of nested lambdas under their caller and keeps sibling order', async () => {
    const inner = RunnableLambda.from(async (x: number) => x * 2).withConfig({ runName: 'double' });
    const outer = RunnableLambda.from(async (x: number) => {
      const a = await inner.invoke(x);
      const b = await inner.invoke(a);
      return b;
    }).withConfig({ runName: 'pipeline' });
    const { spans, result } = await h.traced(() => outer.invoke(3, { callbacks: [h.handler()] }));
    expect(result).toBe(12);
    expect(spans.outline()).toBe(
      ['', 'langchain.chain.pipeline', '  langchain.chain.double', '  langchain.chain.double'].join(
        '\n',
      ),
    );
    const root = spans.one('langchain.chain.pipeline');
    expect(root.attributes['langchain.chain.type']).toBe('pipeline');
    expect(
      spans.named('langchain.chain.double').every((s) => !('langchain.chain.type' in s.attributes)),
    ).toBe(true);
  });

  it('with awaitHandlers: false, spans end in the background and are complete after awaitAllCallbacks', async () => {
    const { spans } = await h.traced(async () => {
      const result = await retrievalGraph(h).invoke(
        { query: 'tracks' },
        { callbacks: [h.handler({ awaitHandlers: false })] },
      );
      await awaitAllCallbacks();
      return result;
    });
    expect(spans.named(/^langgraph\./).map((s) => s.name)).toEqual([
      'langgraph.node.retrieve',
      'langgraph.graph.LangGraph',
    ]);
    expect(spans.parent(spans.one('langgraph.node.retrieve'))?.name).toBe(
      'langgraph.graph.LangGraph',
    );
  });

  it('ignores end callbacks of runs it never saw start', async () => {
    const handler = h.handler();
    await expect(handler.handleChainEnd({ output: 1 }, 'never-started')).resolves.toBeUndefined();
    await expect(handler.handleLLMError(new Error('x'), 'never-started')).resolves.toBeUndefined();
  });
});
