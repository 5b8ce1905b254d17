import { type FixtureLlm, startFixtureLlm } from '@arclight/test-fixtures';
import { createScratchApp, type ScratchApp, WORKSPACE } from '@arclight/test-fixtures/scratch';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { checkExport, checkStore, runApp } from './matrix.js';

// The Agents SDK's handoff example shape: a triage agent with a tool hands off to a second agent. Run once
// on the SDK's default model (Responses API), once on its Chat Completions model, streamed.
// The fixture server calls the tools named in `x-fixture-tool-call` (here: the tool and the handoff at once).

const MAIN = `import OpenAI from 'openai';
import { Agent, run, setDefaultOpenAIClient, setOpenAIAPI, setTraceProcessors, tool } from '@openai/agents';
import { z } from 'zod';
import { LightningTracingProcessor } from '@arclight/instrumentation-openai-agents';
import { RolloutRecorder } from '@arclight/runner';
import { SqliteLightningStore } from '@arclight/store';

const recorder = new RolloutRecorder({ store: new SqliteLightningStore({ path: 'arclight.sqlite' }) });
setTraceProcessors([new LightningTracingProcessor({ tracerProvider: recorder.tracerProvider })]);

setDefaultOpenAIClient(new OpenAI({ defaultHeaders: { 'x-fixture-tool-call': 'get_weather,transfer_to_reporter' } }));

const getWeather = tool({
  name: 'get_weather',
  description: 'The weather in a city',
  parameters: z.object({ city: z.string() }),
  execute: async ({ city }) => \`sunny in \${city}\`,
});
const reporter = new Agent({ name: 'reporter', instructions: 'Write a one-line weather report.', model: 'fixture-tools' });
const triage = Agent.create({
  name: 'triage',
  instructions: 'Look up the weather, then hand off to the reporter.',
  model: 'fixture-tools',
  tools: [getWeather],
  handoffs: [reporter],
});

await recorder.record({ api: 'responses' }, async () => {
  const result = await run(triage, 'Weather in Paris?');
  return result.lastAgent?.name === 'reporter' && result.finalOutput ? 1 : 0;
});

setOpenAIAPI('chat_completions');
await recorder.record({ api: 'chat_completions', stream: true }, async () => {
  const result = await run(triage, 'Weather in Oslo?', { stream: true });
  for await (const _ of result.toTextStream()) {}
  await result.completed;
  return result.lastAgent?.name === 'reporter' && result.finalOutput ? 1 : 0;
});
await recorder.close();
`;

/** The handoff app on one `@openai/agents` version (the app itself on `openai` 7), as a vitest suite. */
export function agentsHandoffSuite(agentsVersion: string, zodVersion = '^4.0.0') {
  let app: ScratchApp;
  let llm: FixtureLlm;

  beforeAll(async () => {
    llm = await startFixtureLlm();
    app = await createScratchApp({
      name: `matrix-openai-agents-${agentsVersion}`,
      dependencies: {
        '@arclight/runner': WORKSPACE,
        '@arclight/store': WORKSPACE,
        '@arclight/instrumentation-openai': WORKSPACE,
        '@arclight/instrumentation-openai-agents': WORKSPACE,
        '@arclight/cli': WORKSPACE,
        '@openai/agents': agentsVersion,
        openai: '^7.0.0',
        zod: zodVersion,
      },
      files: { 'main.mjs': MAIN },
    });
  });

  afterAll(async () => {
    await app?.remove();
    await llm?.close();
  });

  describe(`@openai/agents ${agentsVersion} handoff: default Responses model and Chat Completions model (streamed)`, () => {
    it('records one LLM-call span with token ids per model call, the tool, the handoff and both agents', async () => {
      await runApp(app, llm, 'main.mjs', { register: true });
      // per run: triage (tool + handoff), reporter (answer)
      await checkStore(app, llm, {
        rollouts: 2,
        tools: ['get_weather'],
        llmCallNames: ['openai.responses.create', 'openai.chat.completion'],
      });
      // No `--llm-call-match`: the export's default match covers Responses and Chat Completions calls, so all
      // 4 calls (2 of them `openai.responses.create`) become rows.
      await checkExport(app, { rows: 4, rollouts: 2, agents: ['triage', 'reporter'] });
    });
  });
}
