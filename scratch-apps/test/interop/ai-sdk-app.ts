import { type FixtureLlm, startFixtureLlm } from '@arclight/test-fixtures';
import { createScratchApp, type ScratchApp, WORKSPACE } from '@arclight/test-fixtures/scratch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkExport, checkStore, llmRequests, runApp } from './matrix.js';

// AI SDK multi-step tool agents (`generateText` and `streamText` with `stopWhen`), the docs' shape, on
// `@ai-sdk/openai` (its default model on the Responses API, and `.chat` on Chat Completions) and
// `@ai-sdk/openai-compatible` (a vLLM server). `ai` 7 is recorded through its `telemetry` integrations, 5 and 6
// through `experimental_telemetry` (their OpenTelemetry spans); the app code is otherwise the same.

const main = (telemetryKey: string) => `import { createOpenAI } from '@ai-sdk/openai';
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
    const { text } = await generateText({ model, tools, stopWhen: stepCountIs(5), prompt: 'Weather in Paris?', ${telemetryKey}: telemetry });
    return text.length > 0 ? 1 : 0;
  });
  await recorder.record({ provider, stream: true }, async () => {
    const result = streamText({ model, tools, stopWhen: stepCountIs(5), prompt: 'Weather in Oslo?', ${telemetryKey}: telemetry });
    let text = '';
    for await (const delta of result.textStream) text += delta;
    return text.length > 0 ? 1 : 0;
  });
}
await recorder.close();
`;

/** One `ai` major with the providers of that major. */
export interface AiSdkVersions {
  ai: string;
  openai: string;
  openaiCompatible: string;
  /** The call option the app passes `arclightTelemetry(…)` as. */
  telemetryKey: 'telemetry' | 'experimental_telemetry';
}

/** The app on one `ai` major, as a vitest suite (one file per major, so vitest runs them side by side). */
export function aiSdkSuite(major: number, versions: AiSdkVersions) {
  let app: ScratchApp;
  let llm: FixtureLlm;

  beforeAll(async () => {
    llm = await startFixtureLlm();
    app = await createScratchApp({
      name: `matrix-ai-sdk-${major}`,
      dependencies: {
        '@arclight/runner': WORKSPACE,
        '@arclight/store': WORKSPACE,
        '@arclight/instrumentation-ai-sdk': WORKSPACE,
        '@arclight/cli': WORKSPACE,
        ai: versions.ai,
        '@ai-sdk/openai': versions.openai,
        '@ai-sdk/openai-compatible': versions.openaiCompatible,
        zod: '^4.0.0',
      },
      files: { 'main.mjs': main(versions.telemetryKey) },
    });
  });

  afterAll(async () => {
    await app?.remove();
    await llm?.close();
  });

  describe(`AI SDK ${major} (${versions.telemetryKey}): generateText / streamText multi-step on @ai-sdk/openai (responses, chat) and openai-compatible`, () => {
    it('records one LLM-call span with token ids per step, named for its API, the tool and the agent name', async () => {
      const installed = await app.run('npm', ['ls', 'ai', '--json']);
      expect(JSON.parse(installed.stdout).dependencies.ai.version).toMatch(
        new RegExp(`^${major}\\.`),
      );
      await runApp(app, llm, 'main.mjs');
      // 3 providers × (generate, stream) × (tool step, answer step)
      expect(llmRequests(llm)).toBe(12);
      await checkStore(app, llm, {
        rollouts: 6,
        tools: ['weather'],
        llmCallNames: ['openai.responses.create', 'openai.chat.completion'],
      });
      // The export's default match takes both names: all 12 calls become rows.
      await checkExport(app, { rows: 12, rollouts: 6, agents: ['weather_agent'] });
    });
  });
}
