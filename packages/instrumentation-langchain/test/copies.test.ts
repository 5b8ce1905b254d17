import { resetWarnings, WarningCodes } from '@arclight/core';
import { instrumentOpenAI } from '@arclight/instrumentation-openai';
import { HumanMessage } from '@langchain/core/messages';
import { Annotation, END, START, StateGraph } from '@langchain/langgraph';
import OpenAI from 'openai';
import OpenAI6 from 'openai6';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fixtureChat, type Harness, startHarness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
afterEach(() => resetWarnings());

/** The warnings emitted while `fn` runs (delivered on a later tick). */
async function warningsOf(fn: () => Promise<unknown>): Promise<string[]> {
  const codes: string[] = [];
  const listener = (warning: Error & { code?: string }) => codes.push(String(warning.code));
  process.on('warning', listener);
  try {
    await fn();
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    process.off('warning', listener);
  }
  return codes;
}

const State = Annotation.Root({ answer: Annotation<string>() });

function oneNodeGraph() {
  const model = fixtureChat(h.llm);
  return new StateGraph(State)
    .addNode('agent', async () => ({
      answer: String((await model.invoke([new HumanMessage('hi')])).content),
    }))
    .addEdge(START, 'agent')
    .addEdge('agent', END)
    .compile();
}

/** LLM-call spans: every name the instrumentations write for a call. */
const LLM_CALL = /^openai\.(chat\.completion|responses\.create|completion)$/;

describe('two copies of openai: the decision is per call', () => {
  it('ChatOpenAI on an uninstrumented copy (another copy is instrumented): its own span is the one LLM call, and a warning says why', async () => {
    // The app instruments its copy (openai 6); @langchain/openai uses openai 7, not instrumented.
    const uninstrument = instrumentOpenAI(OpenAI6, {
      tracerProvider: h.tracer.tracerProvider,
      requestTokenIds: true,
    });
    try {
      let spans: Awaited<ReturnType<Harness['traced']>>['spans'] | undefined;
      const warnings = await warningsOf(async () => {
        ({ spans } = await h.traced(() => oneNodeGraph().invoke({}, { callbacks: [h.handler()] })));
      });
      const calls = spans?.named(LLM_CALL) ?? [];
      expect(calls).toHaveLength(1);
      expect(calls[0]?.attributes['langchain.run.id']).toEqual(expect.any(String));
      expect(calls[0]?.attributes.prompt_token_ids).toEqual(expect.any(Array));
      expect(calls[0]?.attributes.response_token_ids).toEqual(expect.any(Array));
      expect(spans?.agentOf(calls[0]!)).toBe('agent');
      expect(warnings).toContain(WarningCodes.UNINSTRUMENTED_CLIENT);
    } finally {
      uninstrument();
    }
  });

  it("ChatOpenAI on the instrumented copy, inside a LangGraph node: the client's span is the one LLM call", async () => {
    const uninstrument = instrumentOpenAI(OpenAI, {
      tracerProvider: h.tracer.tracerProvider,
      requestTokenIds: true,
    });
    try {
      const { spans } = await h.traced(() =>
        oneNodeGraph().invoke({}, { callbacks: [h.handler()] }),
      );
      const calls = spans.named(LLM_CALL);
      expect(calls).toHaveLength(1);
      expect(calls[0]?.attributes['langchain.run.id']).toBeUndefined();
      expect(calls[0]?.attributes.prompt_token_ids).toEqual(expect.any(Array));
      expect(spans.agentOf(calls[0]!)).toBe('agent');
      const model = spans.one('langchain.chat_model');
      expect(Object.keys(model.attributes).some((k) => k.startsWith('gen_ai.'))).toBe(false);
    } finally {
      uninstrument();
    }
  });

  it('an LLM call without token ids warns once, naming the option that requests them', async () => {
    const model = fixtureChat(h.llm, { modelKwargs: {}, __includeRawResponse: undefined });
    const warnings = await warningsOf(async () => {
      await h.traced(async () => {
        await model.invoke([new HumanMessage('one')], { callbacks: [h.handler()] });
        await model.invoke([new HumanMessage('two')], { callbacks: [h.handler()] });
      });
    });
    expect(warnings).toEqual([WarningCodes.NO_TOKEN_IDS]);
  });
});
