import { type FixtureLlm, startFixtureLlm } from '@arclight/test-fixtures';
import { createScratchApp, type ScratchApp, WORKSPACE } from '@arclight/test-fixtures/scratch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkExport, checkStore, installedVersions, llmRequests, runApp } from './matrix.js';

// A raw `openai` streaming tool loop (the SDK's own examples' shape) in an app on one `openai` major, which also
// uses a small local package of its own on another major — two copies in one tree, both patched by the `--import`
// registration, each call one LLM-call span with token ids.

const SUMMARIZER = `import OpenAI from 'openai';
const client = new OpenAI();
export async function summarize(text) {
  const res = await client.chat.completions.create({
    model: 'fixture-model',
    messages: [{ role: 'system', content: 'Summarize in one line.' }, { role: 'user', content: text }],
  });
  return res.choices[0]?.message.content ?? '';
}
`;

const MAIN = `import OpenAI from 'openai';
import { RolloutRecorder } from '@arclight/runner';
import { SqliteLightningStore } from '@arclight/store';
import { summarize } from 'summarizer';

const recorder = new RolloutRecorder({ store: new SqliteLightningStore({ path: 'arclight.sqlite' }) });

const client = new OpenAI();
const tools = [{
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'The weather in a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
}];

async function agent(question) {
  const messages = [{ role: 'user', content: question }];
  for (let step = 0; step < 4; step++) {
    const stream = await client.chat.completions.create({ model: 'fixture-tools', messages, tools, stream: true });
    let content = '';
    const calls = [];
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta;
      content += delta?.content ?? '';
      for (const tc of delta?.tool_calls ?? []) {
        const call = (calls[tc.index] ??= { id: '', name: '', arguments: '' });
        call.id ||= tc.id ?? '';
        call.name += tc.function?.name ?? '';
        call.arguments += tc.function?.arguments ?? '';
      }
    }
    if (calls.length === 0) return summarize(content);
    messages.push({
      role: 'assistant',
      tool_calls: calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })),
    });
    for (const call of calls) messages.push({ role: 'tool', tool_call_id: call.id, content: 'sunny, 21 C' });
  }
  throw new Error('too many steps');
}

for (const city of ['Paris', 'Oslo']) {
  await recorder.record({ city }, async () => ((await agent(\`Weather in \${city}?\`)).length > 0 ? 1 : 0));
}
await recorder.close();
`;

/** The tool-loop app on `openai` `appMajor` with its local dependency on `libMajor`, as a vitest suite. */
export function openaiToolLoopSuite(appMajor: number, libMajor: number) {
  let app: ScratchApp;
  let llm: FixtureLlm;

  beforeAll(async () => {
    llm = await startFixtureLlm();
    app = await createScratchApp({
      name: `matrix-openai-${appMajor}-${libMajor}`,
      dependencies: {
        '@arclight/runner': WORKSPACE,
        '@arclight/store': WORKSPACE,
        '@arclight/instrumentation-openai': WORKSPACE,
        '@arclight/cli': WORKSPACE,
        openai: `^${appMajor}.0.0`,
        summarizer: 'file:./summarizer',
      },
      files: {
        'main.mjs': MAIN,
        'summarizer/package.json': JSON.stringify({
          name: 'summarizer',
          version: '1.0.0',
          type: 'module',
          main: 'index.js',
          dependencies: { openai: `^${libMajor}.0.0` },
        }),
        'summarizer/index.js': SUMMARIZER,
      },
    });
  });

  afterAll(async () => {
    await app?.remove();
    await llm?.close();
  });

  describe(`raw openai: a streaming tool loop on openai ${appMajor} next to a dependency on openai ${libMajor}`, () => {
    it('installs two openai majors', async () => {
      expect(await installedVersions(app, 'openai')).toEqual(
        [String(appMajor), String(libMajor)].sort(),
      );
    });

    it('records one LLM-call span with token ids per call of either copy, and exports them', async () => {
      await runApp(app, llm, 'main.mjs', { register: true });
      // per run: tool call + answer (streamed, the app's copy) + summary (the dependency's copy)
      expect(llmRequests(llm)).toBe(6);
      await checkStore(app, llm, { rollouts: 2, tools: ['get_weather'] });
      // no agent framework: the adapter's agent name for calls outside any agent is '*'
      await checkExport(app, { rows: 6, rollouts: 2, agents: ['*'] });
    });
  });
}
