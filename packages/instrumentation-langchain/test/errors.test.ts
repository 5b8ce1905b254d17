import type { Span } from '@arclight/core';
import { tool } from '@langchain/core/tools';
import { FakeListChatModel } from '@langchain/core/utils/testing';
import { Annotation, END, interrupt, MemorySaver, START, StateGraph } from '@langchain/langgraph';
import type { TracerProvider } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ArclightCallbackHandler } from '../src/index.js';
import { fixtureChat, type Harness, startHarness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const State = Annotation.Root({ input: Annotation<string>(), output: Annotation<string>() });

function exceptionEvent(span: Span) {
  return span.events.find((e) => e.name === 'exception');
}

describe('errors', () => {
  it('marks a failing node and its graph ERROR with an exception event', async () => {
    const graph = new StateGraph(State)
      .addNode('ok', async () => ({ output: 'fine' }))
      .addNode('boom', async (): Promise<Partial<typeof State.State>> => {
        throw new RangeError('bad node');
      })
      .addEdge(START, 'ok')
      .addEdge('ok', 'boom')
      .addEdge('boom', END)
      .compile();
    const handler = h.handler();
    await expect(
      h.tracer.traceContext({}, () => graph.invoke({ input: 'x' }, { callbacks: [handler] })),
    ).rejects.toThrow('bad node');
    const spans = h.tracer.getLastTrace();
    const boom = spans.find((s) => s.name === 'langgraph.node.boom')!;
    expect(boom.status).toMatchObject({ status_code: 'ERROR', description: 'bad node' });
    expect(boom.attributes['error.type']).toBe('RangeError');
    expect(exceptionEvent(boom)?.attributes).toMatchObject({
      'exception.type': 'RangeError',
      'exception.message': 'bad node',
    });
    const graphSpan = spans.find((s) => s.name === 'langgraph.graph.LangGraph')!;
    expect(graphSpan.status.status_code).toBe('ERROR');
    const ok = spans.find((s) => s.name === 'langgraph.node.ok')!;
    expect(ok.status.status_code).toBe('UNSET');
    expect(spans.every((s) => s.end_time !== null)).toBe(true);
  });

  it('marks a failed model call ERROR (the SDK error reaches the caller unchanged in kind)', async () => {
    const model = fixtureChat(h.llm, { model: 'fixture-error-500' });
    await expect(
      h.tracer.traceContext({}, () => model.invoke('hello', { callbacks: [h.handler()] })),
    ).rejects.toThrow(/500/);
    const span = h.tracer.getLastTrace().find((s) => s.name === 'openai.chat.completion')!;
    expect(span.status.status_code).toBe('ERROR');
    expect(span.status.description).toMatch(/500/);
    expect(span.attributes['error.type']).toEqual(expect.any(String));
    expect(exceptionEvent(span)).toBeDefined();
    expect(span.attributes['gen_ai.prompt.0.content']).toBe('hello');
  });

  it('marks a failing tool ERROR', async () => {
    const broken = tool(
      async (): Promise<string> => {
        throw new Error('no such table');
      },
      { name: 'run_sql', description: 'runs SQL', schema: z.object({ sql: z.string() }) },
    );
    await expect(
      h.tracer.traceContext({}, () =>
        broken.invoke({ sql: 'SELECT * FROM nope' }, { callbacks: [h.handler()] }),
      ),
    ).rejects.toThrow('no such table');
    const span = h.tracer.getLastTrace().find((s) => s.name === 'langchain.tool.run_sql')!;
    expect(span.status).toMatchObject({ status_code: 'ERROR', description: 'no such table' });
    expect(JSON.parse(String(span.attributes['langchain.inputs']))).toEqual({
      sql: 'SELECT * FROM nope',
    });
  });

  it('records a LangGraph interrupt as a bubble-up, not a failure', async () => {
    const graph = new StateGraph(State)
      .addNode('ask_human', async (s) => ({ output: String(interrupt(`approve ${s.input}?`)) }))
      .addEdge(START, 'ask_human')
      .addEdge('ask_human', END)
      .compile({ checkpointer: new MemorySaver() });
    const { spans, result } = await h.traced(() =>
      graph.invoke(
        { input: 'DROP TABLE' },
        { callbacks: [h.handler()], configurable: { thread_id: 't-1' } },
      ),
    );
    expect(result).toHaveProperty('__interrupt__');
    const node = spans.one('langgraph.node.ask_human');
    expect(node.attributes['langgraph.bubble_up']).toBe('GraphInterrupt');
    expect(node.attributes['langgraph.thread_id']).toBe('t-1');
    expect(node.status.status_code).toBe('UNSET');
    expect(exceptionEvent(node)).toBeUndefined();
  });

  it('never disturbs the chain when tracing itself fails', async () => {
    const warn = vi.spyOn(console, 'warn');
    const error = vi.spyOn(console, 'error');
    const broken = {
      getTracer: () => {
        throw new Error('provider down');
      },
    } as unknown as TracerProvider;
    const handler = new ArclightCallbackHandler({ tracerProvider: broken });
    const model = new FakeListChatModel({ responses: ['still works'] });
    const reply = await model.invoke('hi', { callbacks: [handler] });
    expect(reply.content).toBe('still works');
    expect(warn).not.toHaveBeenCalled();
    expect(error).not.toHaveBeenCalled();
    warn.mockRestore();
    error.mockRestore();
  });
});
