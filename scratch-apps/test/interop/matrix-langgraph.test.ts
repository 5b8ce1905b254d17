import { type FixtureLlm, startFixtureLlm } from '@arclight/test-fixtures';
import { createScratchApp, type ScratchApp, WORKSPACE } from '@arclight/test-fixtures/scratch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkExport, checkStore, installedVersions, llmRequests, runApp } from './matrix.js';

// LangGraph.js's prebuilt ReAct agent on `@langchain/openai` (which brings its own `openai` 7) in an app on
// `openai` 6, whose tool calls the model through the app's copy. Run once with `invoke`, once streamed.

const MAIN = `import OpenAI from 'openai';
import { ChatOpenAI } from '@langchain/openai';
import { tool } from '@langchain/core/tools';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { z } from 'zod';
import { instrumentLangChain } from '@arclight/instrumentation-langchain';
import { RolloutRecorder } from '@arclight/runner';
import { SqliteLightningStore } from '@arclight/store';

const recorder = new RolloutRecorder({ store: new SqliteLightningStore({ path: 'arclight.sqlite' }) });
instrumentLangChain({ tracerProvider: recorder.tracerProvider });

const local = new OpenAI(); // the app's own openai 6
const describeCity = tool(
  async ({ city }) => {
    const res = await local.chat.completions.create({
      model: 'fixture-model',
      messages: [{ role: 'user', content: \`Describe \${city} in five words.\` }],
    });
    return res.choices[0]?.message.content ?? '';
  },
  { name: 'describe_city', description: 'A short description of a city', schema: z.object({ city: z.string() }) },
);

const llm = new ChatOpenAI({ model: 'fixture-tools', configuration: { baseURL: process.env.OPENAI_BASE_URL } });
const agent = createReactAgent({ llm, tools: [describeCity], name: 'city_agent' });

await recorder.record({ city: 'Paris' }, async () => {
  const result = await agent.invoke({ messages: [{ role: 'user', content: 'Tell me about Paris' }] });
  return result.messages.at(-1).content.length > 0 ? 1 : 0;
});
await recorder.record({ city: 'Oslo' }, async () => {
  let text = '';
  for await (const [chunk] of await agent.stream(
    { messages: [{ role: 'user', content: 'Tell me about Oslo' }] },
    { streamMode: 'messages' },
  )) text += typeof chunk.content === 'string' ? chunk.content : '';
  return text.length > 0 ? 1 : 0;
});
await recorder.close();
`;

let app: ScratchApp;
let llm: FixtureLlm;

beforeAll(async () => {
  llm = await startFixtureLlm();
  app = await createScratchApp({
    name: 'matrix-langgraph',
    dependencies: {
      '@arclight/runner': WORKSPACE,
      '@arclight/store': WORKSPACE,
      '@arclight/instrumentation-openai': WORKSPACE,
      '@arclight/instrumentation-langchain': WORKSPACE,
      '@arclight/cli': WORKSPACE,
      '@langchain/core': '^1.0.0',
      '@langchain/langgraph': '^1.0.0',
      '@langchain/openai': '^1.0.0',
      openai: '^6.0.0',
      zod: '^4.0.0',
    },
    files: { 'main.mjs': MAIN },
  });
});

afterAll(async () => {
  await app?.remove();
  await llm?.close();
});

describe('LangGraph.js ReAct agent via @langchain/openai, next to the app on another openai major', () => {
  it('installs two openai majors', async () => {
    expect(await installedVersions(app, 'openai')).toEqual(['6', '7']);
  });

  it('records one LLM-call span with token ids per call (invoke and stream), the tool and the agent', async () => {
    await runApp(app, llm, 'main.mjs', { register: true });
    // per run: the agent's tool call, the tool's own call (openai 6), the agent's answer
    expect(llmRequests(llm)).toBe(6);
    await checkStore(app, llm, { rollouts: 2, tools: ['describe_city'] });
    // the LangGraph nodes are the agents: the model node, and the tools node whose tool made the inner call
    await checkExport(app, { rows: 6, rollouts: 2, agents: ['agent', 'tools'] });
  });
});
