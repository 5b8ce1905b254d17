import { instrumentOpenAI } from '@arclight/instrumentation-openai';
import { AIMessage, HumanMessage, SystemMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { FakeListChatModel } from '@langchain/core/utils/testing';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fixtureChat, type Harness, startHarness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const messages = [new SystemMessage('You answer briefly.'), new HumanMessage('What is SQL?')];

type ChatBody = { messages: Parameters<Harness['llm']['tokenizer']['encodeChat']>[0] };

describe('LLM-call spans without @arclight/instrumentation-openai', () => {
  it('names the ChatOpenAI span openai.chat.completion and fills gen_ai.* and token ids from the raw response', async () => {
    h.llm.reset();
    const model = fixtureChat(h.llm, { temperature: 0.5, maxTokens: 64 });
    const { spans, result } = await h.traced(() =>
      model.invoke(messages, { callbacks: [h.handler()] }),
    );
    expect(h.llm.requests).toHaveLength(1);
    const span = spans.one('openai.chat.completion');
    const a = span.attributes;
    expect(a).toMatchObject({
      'gen_ai.system': 'OpenAI',
      'gen_ai.request.type': 'chat',
      'gen_ai.request.model': 'fixture-model',
      'gen_ai.request.temperature': 0.5,
      'gen_ai.request.max_tokens': 64,
      'gen_ai.request.return_token_ids': true,
      'gen_ai.request.streaming': false,
      'gen_ai.prompt.0.role': 'system',
      'gen_ai.prompt.0.content': 'You answer briefly.',
      'gen_ai.prompt.1.role': 'user',
      'gen_ai.prompt.1.content': 'What is SQL?',
      'gen_ai.response.id': result.id,
      'gen_ai.response.model': 'fixture-model',
      'gen_ai.completion.0.role': 'assistant',
      'gen_ai.completion.0.content': 'Fixture answer to: What is SQL?',
      'gen_ai.completion.0.finish_reason': 'stop',
    });
    const body = h.llm.requests[0]!.body as ChatBody;
    const promptIds = h.llm.tokenizer.encodeChat(body.messages);
    expect(a.prompt_token_ids).toEqual(promptIds);
    expect(a.response_token_ids).toEqual([
      ...h.llm.tokenizer.encode('Fixture answer to: What is SQL?'),
      2,
    ]);
    expect(a['gen_ai.usage.prompt_tokens']).toBe(promptIds.length);
    expect(a['gen_ai.usage.completion_tokens']).toBe((a.response_token_ids as number[]).length);
    expect(span.attributes).not.toHaveProperty('langchain.inputs');
  });

  it('assembles token ids from the raw chunks of a stream', async () => {
    h.llm.reset();
    const model = fixtureChat(h.llm, { streamUsage: true });
    const { spans } = await h.traced(async () => {
      let text = '';
      for await (const chunk of await model.stream(messages, { callbacks: [h.handler()] })) {
        text += String(chunk.content);
      }
      return text;
    });
    const a = spans.one('openai.chat.completion').attributes;
    const body = h.llm.requests[0]!.body as ChatBody & { stream: boolean };
    expect(body.stream).toBe(true);
    expect(a['gen_ai.request.streaming']).toBe(true);
    expect(a.prompt_token_ids).toEqual(h.llm.tokenizer.encodeChat(body.messages));
    expect(a.response_token_ids).toEqual([
      ...h.llm.tokenizer.encode('Fixture answer to: What is SQL?'),
      2,
    ]);
    expect(a['gen_ai.completion.0.content']).toBe('Fixture answer to: What is SQL?');
    expect(a['gen_ai.completion.0.finish_reason']).toBe('stop');
    expect(a['gen_ai.response.id']).toMatch(/^chatcmpl-/);
    expect(a['gen_ai.usage.prompt_tokens']).toBe((a.prompt_token_ids as number[]).length);
  });

  it('records tool definitions, tool calls of the completion and tool turns of the prompt', async () => {
    h.llm.reset();
    const add = tool(async ({ a, b }: { a: number; b: number }) => String(a + b), {
      name: 'add',
      description: 'Adds two numbers',
      schema: z.object({ a: z.number(), b: z.number() }),
    });
    const model = fixtureChat(h.llm, { model: 'fixture-tools' }).bindTools([add]);
    const handler = h.handler();
    const { spans } = await h.traced(async () => {
      const first = await model.invoke(messages, { callbacks: [handler] });
      const call = first.tool_calls?.[0];
      if (!call) throw new Error('no tool call');
      const toolMessage = await add.invoke(call, { callbacks: [handler] });
      return model.invoke([...messages, first, toolMessage], { callbacks: [handler] });
    });
    const [first, second] = spans.named('openai.chat.completion');
    expect(first?.attributes).toMatchObject({
      'gen_ai.request.functions.0.name': 'add',
      'gen_ai.request.functions.0.description': 'Adds two numbers',
      'gen_ai.completion.0.tool_calls.0.name': 'add',
      'gen_ai.completion.0.finish_reason': 'tool_calls',
    });
    const callId = first?.attributes['gen_ai.completion.0.tool_calls.0.id'];
    expect(callId).toMatch(/^call_/);
    expect(
      JSON.parse(String(first?.attributes['gen_ai.completion.0.tool_calls.0.arguments'])),
    ).toEqual({ a: 1.5, b: 1.5 });
    expect(
      JSON.parse(String(first?.attributes['gen_ai.request.functions.0.parameters'])),
    ).toMatchObject({ type: 'object', required: ['a', 'b'] });
    expect(second?.attributes).toMatchObject({
      'gen_ai.prompt.2.role': 'assistant',
      'gen_ai.prompt.2.tool_calls.0.id': callId,
      'gen_ai.prompt.2.tool_calls.0.name': 'add',
      'gen_ai.prompt.3.role': 'tool',
      'gen_ai.prompt.3.tool_call_id': callId,
      'gen_ai.prompt.3.content': '3',
    });
    const toolSpan = spans.one('langchain.tool.add');
    expect(toolSpan.attributes['langchain.tool.call_id']).toBe(callId);
    expect(JSON.parse(String(toolSpan.attributes['langchain.outputs']))).toMatchObject({
      output: { kwargs: { content: '3' } },
    });
  });

  it('without the raw response keeps id, model, usage and completion, but has no token ids', async () => {
    h.llm.reset();
    const model = fixtureChat(h.llm, { __includeRawResponse: undefined, modelKwargs: {} });
    const { spans, result } = await h.traced(() =>
      model.invoke(messages, { callbacks: [h.handler()] }),
    );
    const a = spans.one('openai.chat.completion').attributes;
    expect(a['gen_ai.response.id']).toBe(result.id);
    expect(a['gen_ai.response.model']).toBe('fixture-model');
    expect(a['gen_ai.completion.0.content']).toBe('Fixture answer to: What is SQL?');
    expect(a['gen_ai.usage.total_tokens']).toEqual(expect.any(Number));
    expect(a).not.toHaveProperty('prompt_token_ids');
    expect(a).not.toHaveProperty('response_token_ids');
  });

  it('names other providers langchain.chat_model, with gen_ai.* (count them with llmCallMatch)', async () => {
    const model = new FakeListChatModel({ responses: ['SELECT 1;'] });
    const { spans } = await h.traced(() =>
      model.invoke([new HumanMessage('sql please')], { callbacks: [h.handler()] }),
    );
    expect(spans.named('openai.chat.completion')).toEqual([]);
    const a = spans.one('langchain.chat_model').attributes;
    expect(a['gen_ai.system']).not.toBe('OpenAI');
    expect(a['gen_ai.prompt.0.content']).toBe('sql please');
    expect(a['gen_ai.completion.0.content']).toBe('SELECT 1;');
    expect(a['gen_ai.completion.0.role']).toBe('assistant');
  });

  it('honours llmCallSpans: never', async () => {
    const model = fixtureChat(h.llm);
    const { spans } = await h.traced(() =>
      model.invoke(messages, { callbacks: [h.handler({ llmCallSpans: 'never' })] }),
    );
    expect(spans.named('openai.chat.completion')).toEqual([]);
    expect(
      Object.keys(spans.one('langchain.chat_model').attributes).some((k) =>
        k.startsWith('gen_ai.'),
      ),
    ).toBe(false);
  });
});

describe('LLM-call spans with @arclight/instrumentation-openai active', () => {
  it('writes langchain.chat_model without gen_ai.*; the nested openai.chat.completion span is the one LLM call', async () => {
    const uninstrument = instrumentOpenAI(OpenAI, {
      tracerProvider: h.tracer.tracerProvider,
      requestTokenIds: true,
    });
    try {
      h.llm.reset();
      const model = fixtureChat(h.llm, { __includeRawResponse: undefined, modelKwargs: {} });
      const { spans } = await h.traced(() =>
        model.invoke([new AIMessage('hi'), new HumanMessage('again')], {
          callbacks: [h.handler()],
        }),
      );
      expect(h.llm.requests).toHaveLength(1);
      const calls = spans.named('openai.chat.completion');
      expect(calls).toHaveLength(1);
      expect(calls[0]?.attributes['langchain.run.id']).toBeUndefined();
      expect(calls[0]?.attributes.prompt_token_ids).toEqual(expect.any(Array));
      const model_ = spans.one('langchain.chat_model');
      expect(Object.keys(model_.attributes).some((k) => k.startsWith('gen_ai.'))).toBe(false);
      expect(model_.attributes).toMatchObject({
        'langchain.model.provider': 'openai',
        'langchain.model.name': 'fixture-model',
      });
      expect(JSON.parse(String(model_.attributes['langchain.outputs']))).toMatchObject({
        generations: [[{ text: 'Fixture answer to: again' }]],
      });
    } finally {
      uninstrument();
    }
  });
});
