import { createRequire } from 'node:module';
import { LLM_CALL_SPAN_MATCH, type Span } from '@arclight/core';
import { respond } from '@arclight/test-fixtures';
import * as openaiCompatible1 from 'ai-sdk-openai-compatible1';
import * as openaiCompatible2 from 'ai-sdk-openai-compatible2';
import * as openai2 from 'ai-sdk-openai2';
import * as openai3 from 'ai-sdk-openai3';
import * as ai5 from 'ai5';
import * as ai6 from 'ai6';
import { describe, expect, it } from 'vitest';
import { ArclightTelemetry, arclightTelemetry, tokenIdsFetch, withArclight } from '../src/index.js';
import {
  childrenOf,
  harness,
  intArray,
  named,
  one,
  requestBodies,
  triplets,
  useHarness,
} from './support.js';

// `ai` 5 and 6 (installed here under the aliases ai5 / ai6, with their providers) have no `Telemetry`
// integrations: `arclightTelemetry` hands them an OpenTelemetry tracer through `experimental_telemetry`, and
// their own spans are written in the LLM-call layout.

(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

const require = createRequire(import.meta.url);
const versionOf = (name: string) =>
  (require(`${name}/package.json`) as { version: string }).version;

/** What a test needs of one `ai` major: its functions and providers (typed loosely: three majors). */
interface Sdk {
  label: string;
  version: string;
  // biome-ignore lint/suspicious/noExplicitAny: each major has its own option types
  generateText: (options: any) => Promise<{ text: string; steps: unknown[] }>;
  // biome-ignore lint/suspicious/noExplicitAny: as above
  streamText: (options: any) => { text: PromiseLike<string> };
  // biome-ignore lint/suspicious/noExplicitAny: as above
  stepCountIs: (n: number) => any;
  // biome-ignore lint/suspicious/noExplicitAny: as above
  tool: (definition: any) => any;
  // biome-ignore lint/suspicious/noExplicitAny: as above
  jsonSchema: (schema: any) => any;
  // biome-ignore lint/suspicious/noExplicitAny: as above
  compatible: (baseURL: string) => (id: string) => any;
  // biome-ignore lint/suspicious/noExplicitAny: as above
  openai: (baseURL: string) => { (id: string): any; chat(id: string): any };
}

const SDKS: Sdk[] = [
  {
    label: 'ai 5',
    version: versionOf('ai5'),
    ...ai5,
    compatible: (baseURL) =>
      openaiCompatible1.createOpenAICompatible({ name: 'fixture', baseURL, includeUsage: true }),
    openai: (baseURL) =>
      openai2.createOpenAI({ baseURL, apiKey: 'unused', fetch: tokenIdsFetch() }),
  },
  {
    label: 'ai 6',
    version: versionOf('ai6'),
    ...ai6,
    compatible: (baseURL) =>
      openaiCompatible2.createOpenAICompatible({ name: 'fixture', baseURL, includeUsage: true }),
    openai: (baseURL) =>
      openai3.createOpenAI({ baseURL, apiKey: 'unused', fetch: tokenIdsFetch() }),
  },
];

function expectTokenIds(call: Span): void {
  expect(intArray(call.attributes.prompt_token_ids).length).toBeGreaterThan(0);
  expect(intArray(call.attributes.response_token_ids).length).toBeGreaterThan(0);
}

describe.each(SDKS)('$label ($version) through experimental_telemetry', (sdk) => {
  const h = useHarness();

  const calculator = () =>
    sdk.tool({
      description: 'Evaluates an arithmetic expression',
      inputSchema: sdk.jsonSchema({
        type: 'object',
        properties: { expression: { type: 'string' } },
        required: ['expression'],
      }),
      execute: async () => '42',
    });
  const telemetry = (settings: Parameters<typeof arclightTelemetry>[1] = {}) =>
    arclightTelemetry(h.tracer, { aiVersion: sdk.version, ...settings });

  it.each([
    { mode: 'generateText', streaming: false },
    { mode: 'streamText', streaming: true },
  ])(
    '$mode with a tool: one LLM-call span per step with token ids, tool spans, agent name',
    async ({ streaming }) => {
      // The fixture's tools model calls the first tool, then answers from its result.
      const model = withArclight(sdk.compatible(h.llm.baseUrl)('fixture-tools'));
      const options = {
        model,
        system: 'You compute.',
        prompt: 'What is 6*7?',
        tools: { calculator: calculator() },
        stopWhen: sdk.stepCountIs(3),
        maxRetries: 0,
        experimental_telemetry: telemetry({ agentName: 'calc' }),
      };
      const { result, spans } = await h.run(async () =>
        streaming
          ? { text: await sdk.streamText(options).text }
          : { text: (await sdk.generateText(options)).text },
      );
      expect(result.text).toMatch(/42/);
      expect(h.llm.requests).toHaveLength(2);
      expect(requestBodies(h.llm)[0]?.return_token_ids).toBe(true);

      const operation = one(spans, streaming ? 'ai.streamText' : 'ai.generateText');
      expect(operation.attributes['agent.name']).toBe('calc');
      const calls = spans.filter((s) => LLM_CALL_SPAN_MATCH.test(s.name));
      expect(calls.map((c) => c.name)).toEqual([
        'openai.chat.completion',
        'openai.chat.completion',
      ]);
      for (const call of calls) {
        expect(call.parent_id).toBe(operation.span_id);
        expect(call.status.status_code).toBe('OK');
        expectTokenIds(call);
      }
      const [first, second] = calls as [Span, Span];
      expect(first.attributes).toMatchObject({
        'gen_ai.system': 'OpenAI',
        'gen_ai.request.model': 'fixture-tools',
        'gen_ai.request.streaming': streaming,
        'gen_ai.prompt.0.role': 'system',
        'gen_ai.prompt.0.content': 'You compute.',
        'gen_ai.prompt.1.role': 'user',
        'gen_ai.prompt.1.content': 'What is 6*7?',
        'gen_ai.request.functions.0.name': 'calculator',
        'gen_ai.completion.0.finish_reason': 'tool_calls',
        'gen_ai.completion.0.tool_calls.0.name': 'calculator',
      });
      expect(second.attributes).toMatchObject({
        'gen_ai.prompt.2.role': 'assistant',
        'gen_ai.prompt.2.tool_calls.0.name': 'calculator',
        'gen_ai.prompt.3.role': 'tool',
        'gen_ai.prompt.3.content': '42',
        'gen_ai.completion.0.finish_reason': 'stop',
      });
      expect(Number(second.attributes['gen_ai.usage.prompt_tokens'])).toBeGreaterThan(0);
      // The AgentOps tool-call child of the LLM call, and the execution under the operation.
      expect(childrenOf(spans, first).map((s) => s.name)).toEqual(['tool_call.calculator']);
      const execution = one(spans, 'ai.toolCall');
      expect(execution.parent_id).toBe(operation.span_id);
      expect(execution.attributes).toMatchObject({
        'tool.name': 'calculator',
        'gen_ai.tool.name': 'calculator',
      });
      const rows = triplets(spans);
      expect(rows.map((t) => t.metadata.agent_name)).toEqual(['calc', 'calc']);
    },
  );

  it.each([
    { api: 'responses (the default model)', pick: 'default', span: 'openai.responses.create' },
    { api: 'chat', pick: 'chat', span: 'openai.chat.completion' },
  ])(
    '@ai-sdk/openai $api: named for its API, with token ids, generate and stream',
    async ({ pick, span }) => {
      const provider = sdk.openai(h.llm.baseUrl);
      const model = withArclight(
        pick === 'chat' ? provider.chat('fixture-model') : provider('fixture-model'),
      );
      const { spans } = await h.run(async () => {
        const options = {
          model,
          prompt: 'Token ids please',
          maxRetries: 0,
          experimental_telemetry: telemetry({ agentName: 'agent' }),
        };
        await sdk.generateText(options);
        await sdk.streamText(options).text;
      });
      const calls = spans.filter((s) => LLM_CALL_SPAN_MATCH.test(s.name));
      expect(calls.map((c) => c.name)).toEqual([span, span]);
      expect(calls.map((c) => c.attributes['gen_ai.request.streaming'])).toEqual([false, true]);
      for (const call of calls) expectTokenIds(call);
      expect(triplets(spans, { llmCallMatch: LLM_CALL_SPAN_MATCH })).toHaveLength(2);
    },
  );

  it('marks a failed provider call as an error, with the prompt', async () => {
    h.llm.use(respond('broken', { error: { status: 500, message: 'engine failure' } }));
    const { spans } = await h.run(async () => {
      await expect(
        sdk.generateText({
          model: withArclight(sdk.compatible(h.llm.baseUrl)('fixture-model')),
          prompt: 'broken',
          maxRetries: 0,
          experimental_telemetry: telemetry(),
        }),
      ).rejects.toThrow(/engine failure/);
    });
    const call = one(spans, 'openai.chat.completion');
    expect(call.status.status_code).toBe('ERROR');
    expect(call.attributes['gen_ai.prompt.0.content']).toBe('broken');
    expect(named(spans, 'tool_call.calculator')).toHaveLength(0);
  });

  it('recordInputs: false drops the prompt and keeps the token ids', async () => {
    const { spans } = await h.run(() =>
      sdk.generateText({
        model: withArclight(sdk.compatible(h.llm.baseUrl)('fixture-model')),
        prompt: 'secret',
        maxRetries: 0,
        experimental_telemetry: telemetry({ recordInputs: false }),
      }),
    );
    const call = one(spans, 'openai.chat.completion');
    const prompt = Object.entries(call.attributes).filter(([key]) =>
      key.startsWith('gen_ai.prompt.'),
    );
    expect(JSON.stringify(prompt)).not.toContain('secret');
    expect(one(spans, 'ai.generateText').attributes['ai.prompt']).toBeUndefined();
    expectTokenIds(call);
  });

  it('recordOutputs: false drops the completion and keeps the token ids (generate and stream)', async () => {
    const model = withArclight(sdk.compatible(h.llm.baseUrl)('fixture-model'));
    const { spans } = await h.run(async () => {
      await sdk.generateText({
        model,
        prompt: 'quiet',
        maxRetries: 0,
        experimental_telemetry: telemetry({ recordOutputs: false }),
      });
      const stream = sdk.streamText({
        model,
        prompt: 'quiet stream',
        maxRetries: 0,
        experimental_telemetry: telemetry({ recordOutputs: false }),
      });
      await stream.text;
    });
    const calls = named(spans, 'openai.chat.completion');
    expect(calls).toHaveLength(2);
    expect(JSON.stringify(spans.map((s) => s.attributes))).not.toContain('Fixture answer');
    for (const call of calls) expectTokenIds(call);
  });

  it('ArclightTelemetry (an ai 7 integration) refuses this version, naming the fix', () => {
    expect(() => new ArclightTelemetry(h.tracer, { aiVersion: sdk.version })).toThrow(
      expect.objectContaining({
        code: 'ERR_ARCLIGHT_AI_TELEMETRY_API',
        message: expect.stringContaining('experimental_telemetry: arclightTelemetry(tracer'),
      }),
    );
  });
});

describe('ai versions without support', () => {
  it('arclightTelemetry throws for ai < 5, naming the version, the supported range and the fix', async () => {
    const h = await harness();
    try {
      expect(() => arclightTelemetry(h.tracer, { aiVersion: '4.3.19' })).toThrow(
        expect.objectContaining({
          code: 'ERR_ARCLIGHT_UNSUPPORTED_AI',
          message: expect.stringMatching(/ai >=5 <8.*4\.3\.19.*npm install ai@\^7/s),
        }),
      );
    } finally {
      await h.close();
    }
  });
});
