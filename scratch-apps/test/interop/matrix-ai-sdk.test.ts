import { type FixtureLlm, startFixtureLlm } from '@arclight/test-fixtures';
import { createScratchApp, type ScratchApp, WORKSPACE } from '@arclight/test-fixtures/scratch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkExport, checkStore, llmRequests, runApp } from './matrix.js';

// AI SDK multi-step tool agents (`generateText` and `streamText` with `stopWhen`), the docs' shape, on
// `@ai-sdk/openai` (Responses and Chat) and `@ai-sdk/openai-compatible` (a vLLM server).

const MAIN = `import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, stepCountIs, streamText, tool } from 'ai';
import { z } from 'zod';
import { arclightTelemetry, tokenIdsFetch, withArclight } from '@arclight/instrumentation-ai-sdk';
import { RolloutRecorder } from '@arclight/runner';
import { SqliteLightningStore } from '@arclight/store';

const recorder = new RolloutRecorder({ store: new SqliteLightningStore({ path: 'arclight.sqlite' }) });
const telemetry = arclightTelemetry(recorder.tracerProvider, { agentName: 'weather_agent' });

const openai = createOpenAI({ baseURL: process.env.OPENAI_BASE_URL, fetch: tokenIdsFetch() });
const vllm = createOpenAICompatible({ name: 'vllm', baseURL: process.env.OPENAI_BASE_URL, includeUsage: true });
const models = {
  responses: withArclight(openai('fixture-tools')),
  chat: withArclight(openai.chat('fixture-tools')),
  compatible: withArclight(vllm('fixture-tools')),
};
const tools = {
  weather: tool({
    description: 'The weather in a city',
    inputSchema: z.object({ city: z.string() }),
    execute: async ({ city }) => \`sunny in \${city}\`,
  }),
};

for (const [provider, model] of Object.entries(models)) {
  await recorder.record({ provider, stream: false }, async () => {
    const { text } = await generateText({ model, tools, stopWhen: stepCountIs(5), prompt: 'Weather in Paris?', telemetry });
    return text.length > 0 ? 1 : 0;
  });
  await recorder.record({ provider, stream: true }, async () => {
    const result = streamText({ model, tools, stopWhen: stepCountIs(5), prompt: 'Weather in Oslo?', telemetry });
    let text = '';
    for await (const delta of result.textStream) text += delta;
    return text.length > 0 ? 1 : 0;
  });
}
await recorder.close();
`;

let app: ScratchApp;
let llm: FixtureLlm;

beforeAll(async () => {
  llm = await startFixtureLlm();
  app = await createScratchApp({
    name: 'matrix-ai-sdk-7',
    dependencies: {
      '@arclight/runner': WORKSPACE,
      '@arclight/store': WORKSPACE,
      '@arclight/instrumentation-ai-sdk': WORKSPACE,
      '@arclight/cli': WORKSPACE,
      ai: '^7.0.0',
      '@ai-sdk/openai': 'latest',
      '@ai-sdk/openai-compatible': 'latest',
      zod: '^4.0.0',
    },
    files: { 'main.mjs': MAIN },
  });
});

afterAll(async () => {
  await app?.remove();
  await llm?.close();
});

describe('AI SDK 7: generateText / streamText multi-step on @ai-sdk/openai (responses, chat) and openai-compatible', () => {
  it('records one LLM-call span with token ids per step, the tool and the agent name', async () => {
    await runApp(app, llm, 'main.mjs');
    // 3 providers × (generate, stream) × (tool step, answer step)
    expect(llmRequests(llm)).toBe(12);
    await checkStore(app, llm, {
      rollouts: 6,
      tools: ['weather'],
      llmCallNames: ['openai.chat.completion'],
    });
    await checkExport(app, { rows: 12, rollouts: 6, agents: ['weather_agent'] });
  });
});
