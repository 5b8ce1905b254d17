import { TracerTraceToTriplet, TraceToMessages } from '@arclight/adapter';
import { hasWarned, resetWarnings, type Span, WarningCodes } from '@arclight/core';
import { type FixtureLlm, startFixtureLlm } from '@arclight/test-fixtures';
import * as agents from '@openai/agents';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type AgentsInstrumentation,
  instrumentOpenAIAgents,
  LightningTracingProcessor,
} from '../src/index.js';
import { byName, byStart, TracerHarness } from './harness.js';
import { buildAgents, chatModel, mathResponder } from './scenario.js';

// The Chat Completions model's generation spans have no `tools` in their data: `instrumentOpenAIAgents`
// observes the model so each LLM-call span records the tools its request offered. The `openai` client is not
// instrumented here, so the generation spans are the LLM-call spans.
let llm: FixtureLlm;
let harness: TracerHarness;
let instrumentation: AgentsInstrumentation | undefined;

beforeAll(async () => {
  llm = await startFixtureLlm({ recordings: false });
  harness = new TracerHarness();
});
afterEach(() => {
  instrumentation?.uninstrument();
  instrumentation = undefined;
  agents.setTraceProcessors([]);
  llm.reset();
});
afterAll(async () => {
  await harness.shutdown();
  await llm.close();
});

interface SentTool {
  type: string;
  function: { name: string; description: string; parameters: unknown };
}

/**
 * The tools of each chat request the fixture server received, in the order served (without the SDK's
 * `strict` flag, which the `gen_ai.request.functions.*` convention has no attribute for).
 */
function sentTools(): SentTool[][] {
  return llm.requests
    .filter((r) => r.path === '/v1/chat/completions')
    .map((r) =>
      ((r.body as { tools?: SentTool[] }).tools ?? []).map(({ type, function: fn }) => ({
        type,
        function: { name: fn.name, description: fn.description, parameters: fn.parameters },
      })),
    );
}

/** `gen_ai.request.functions.N.*` of an LLM-call span, in the request's shape. */
function recordedTools(span: Span): SentTool[] {
  const tools: SentTool[] = [];
  for (let i = 0; span.attributes[`gen_ai.request.functions.${i}.name`] !== undefined; i += 1) {
    const at = `gen_ai.request.functions.${i}`;
    tools.push({
      type: 'function',
      function: {
        name: span.attributes[`${at}.name`] as string,
        description: span.attributes[`${at}.description`] as string,
        parameters: JSON.parse(span.attributes[`${at}.parameters`] as string),
      },
    });
  }
  return tools;
}

async function runScenario(stream: boolean) {
  llm.use(mathResponder);
  const { triage } = buildAgents({ model: chatModel(llm.baseUrl), returnTokenIds: true });
  return harness.rollout(async () => {
    if (!stream) return (await agents.run(triage, 'What is 2 + 3?')).finalOutput;
    const result = await agents.run(triage, 'What is 2 + 3?', { stream: true });
    for await (const _ of result.toTextStream()) {
    }
    await result.completed;
    return result.finalOutput;
  });
}

describe.each([
  ['getResponse', false],
  ['getStreamedResponse', true],
])(
  'Chat Completions model, %s',
  (_method, stream) => {
    it('records on each LLM-call span exactly the tools its request sent (handoffs as transfer_to_*)', async () => {
      instrumentation = instrumentOpenAIAgents(agents, { tracer: harness.tracer, exclusive: true });
      const { result, spans } = await runScenario(stream);
      expect(result).toBe('The answer is 5.');

      const calls = byStart(byName(spans, 'openai.chat.completion'));
      const sent = sentTools();
      expect(calls).toHaveLength(3);
      expect(sent.map((tools) => tools.map((t) => t.function.name))).toEqual([
        ['transfer_to_math_agent'],
        ['add'],
        ['add'],
      ]);
      expect(calls.map(recordedTools)).toEqual(sent);
      const add = recordedTools(calls[1]!)[0]!.function;
      expect(add.description).toBe('Adds two numbers.');
      expect(add.parameters).toMatchObject({
        type: 'object',
        properties: { a: { type: 'number' }, b: { type: 'number' } },
      });

      // What the adapter hands to the exporters: each triplet's request, and each conversation's tools.
      const triplets = new TracerTraceToTriplet().adapt(spans);
      expect(triplets).toHaveLength(3);
      const functions = triplets.map((t) => {
        const request = (t.metadata as { request?: { functions?: { name: string }[] } }).request;
        return request?.functions?.map((f) => f.name);
      });
      expect(functions).toEqual([['transfer_to_math_agent'], ['add'], ['add']]);
      const conversations = new TraceToMessages().adapt(spans);
      expect(conversations.map((c) => c.tools?.map((t) => t.function.name))).toEqual([
        ['transfer_to_math_agent'],
        ['add'],
        ['add'],
      ]);
    });
  },
  30_000,
);

describe('observing the Chat Completions model', () => {
  it('ends with uninstrument(): generation spans then carry no tools, as the SDK reports none', async () => {
    instrumentation = instrumentOpenAIAgents(agents, { tracer: harness.tracer, exclusive: true });
    instrumentation.uninstrument();
    instrumentation = undefined;
    agents.setTraceProcessors([new LightningTracingProcessor({ tracer: harness.tracer })]);
    const { spans } = await runScenario(false);
    const calls = byName(spans, 'openai.chat.completion');
    expect(calls).toHaveLength(3);
    expect(calls.map(recordedTools)).toEqual([[], [], []]);
  });

  it('warns once, with the fix, when the model is not observed and its calls cannot record their tools', async () => {
    resetWarnings(WarningCodes.NO_TOOL_DEFINITIONS);
    agents.setTraceProcessors([new LightningTracingProcessor({ tracer: harness.tracer })]);
    const warnings: (Error & { code?: string })[] = [];
    const listener = (warning: Error) => warnings.push(warning);
    process.on('warning', listener);
    try {
      await runScenario(false);
      await new Promise((resolve) => setImmediate(resolve)); // warnings are emitted on the next tick
    } finally {
      process.off('warning', listener);
    }
    const noTools = warnings.filter((w) => w.code === WarningCodes.NO_TOOL_DEFINITIONS);
    expect(noTools).toHaveLength(1);
    expect(noTools[0]!.message).toContain('instrumentOpenAIAgents(agents)');

    resetWarnings(WarningCodes.NO_TOOL_DEFINITIONS);
    instrumentation = instrumentOpenAIAgents(agents, { tracer: harness.tracer, exclusive: true });
    await runScenario(false);
    expect(hasWarned(WarningCodes.NO_TOOL_DEFINITIONS)).toBe(false);
  });

  it('is shared: the wrap stays until the last instrumentation is undone', async () => {
    const first = instrumentOpenAIAgents(agents, { tracer: harness.tracer, exclusive: true });
    const second = instrumentOpenAIAgents(agents, { tracer: harness.tracer, exclusive: true });
    const wrapped = agents.OpenAIChatCompletionsModel.prototype.getResponse;
    first.uninstrument();
    first.uninstrument();
    expect(agents.OpenAIChatCompletionsModel.prototype.getResponse).toBe(wrapped);
    instrumentation = second;
    const { spans } = await runScenario(false);
    expect(byName(spans, 'openai.chat.completion').map(recordedTools)).toEqual(sentTools());
    second.uninstrument();
    instrumentation = undefined;
    expect(agents.OpenAIChatCompletionsModel.prototype.getResponse).not.toBe(wrapped);
  });
});
