import { TracerTraceToTriplet } from '@arclight/adapter';
import { type FixtureLlm, startFixtureLlm } from '@arclight/test-fixtures';
import { OpenAIResponsesModel, run, setTraceProcessors } from '@openai/agents';
import OpenAI from 'openai';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LightningTracingProcessor } from '../src/index.js';
import { agentOf, byName, byStart, TracerHarness } from './harness.js';
import { buildAgents, mathResponder } from './scenario.js';

let llm: FixtureLlm;
let harness: TracerHarness;

beforeAll(async () => {
  llm = await startFixtureLlm({ recordings: false });
  harness = new TracerHarness();
  setTraceProcessors([new LightningTracingProcessor({ tracer: harness.tracer })]);
});
afterAll(async () => {
  setTraceProcessors([]);
  await harness.shutdown();
  await llm.close();
});

it('maps response spans (Responses API) to LLM-call spans named openai.responses.create', async () => {
  llm.use(mathResponder);
  const client = new OpenAI({ baseURL: llm.baseUrl, apiKey: 'fixture', maxRetries: 0 });
  const model = new OpenAIResponsesModel(client, 'fixture-model');
  const { triage } = buildAgents({ model, returnTokenIds: true });
  const { result, spans } = await harness.rollout(() => run(triage, 'What is 20 + 22?'));
  expect(result.finalOutput).toBe('The answer is 42.');
  expect(llm.requests.every((r) => r.path === '/v1/responses')).toBe(true);

  const calls = byStart(byName(spans, 'openai.responses.create'));
  expect(calls).toHaveLength(llm.requests.length);
  expect(byName(spans, 'openai.chat.completion')).toHaveLength(0);
  expect(calls.map((c) => agentOf(spans, c))).toEqual(['triage', 'math_agent', 'math_agent']);
  const [first, second, last] = calls.map((c) => c.attributes);
  expect(first).toMatchObject({
    'openai_agents.span.type': 'response',
    'gen_ai.prompt.0.role': 'system',
    'gen_ai.prompt.0.content': 'Route the user to the right specialist.',
    'gen_ai.prompt.1.role': 'user',
    'gen_ai.prompt.1.content': 'What is 20 + 22?',
    'gen_ai.request.functions.0.name': 'transfer_to_math_agent',
    'gen_ai.completion.0.finish_reason': 'tool_calls',
    'gen_ai.completion.0.tool_calls.0.name': 'transfer_to_math_agent',
  });
  expect(String(first!['gen_ai.response.id'])).toMatch(/^resp_/);
  expect(second).toMatchObject({
    'gen_ai.prompt.2.role': 'assistant',
    'gen_ai.prompt.2.tool_calls.0.name': 'transfer_to_math_agent',
    'gen_ai.prompt.3.role': 'tool',
    'gen_ai.completion.0.tool_calls.0.name': 'add',
  });
  expect(last).toMatchObject({
    'gen_ai.completion.0.content': 'The answer is 42.',
    'gen_ai.completion.0.finish_reason': 'stop',
  });
  for (const call of calls) {
    const ids = call.attributes.prompt_token_ids as number[];
    expect(ids.length).toBe(call.attributes['gen_ai.usage.prompt_tokens']);
    expect((call.attributes.response_token_ids as number[]).length).toBe(
      call.attributes['gen_ai.usage.completion_tokens'],
    );
  }
  expect(llm.tokenizer.decode(last!.response_token_ids as number[])).toBe(
    'The answer is 42.<|im_end|>',
  );

  // Like @arclight/instrumentation-openai's Responses spans, they need a wider llmCallMatch.
  expect(new TracerTraceToTriplet().adapt(spans)).toHaveLength(0);
  const adapter = new TracerTraceToTriplet({
    llmCallMatch: /openai\.(chat\.completion|responses\.create)/,
  });
  const triplets = adapter.adapt(spans);
  expect(triplets).toHaveLength(3);
  expect(triplets.map((t) => t.metadata.agent_name)).toEqual([
    'triage',
    'math_agent',
    'math_agent',
  ]);
});
