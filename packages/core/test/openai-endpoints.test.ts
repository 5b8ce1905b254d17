import { describe, expect, it } from 'vitest';
import { AttributeBag, OPENAI_API_ENDPOINTS, TokenAttributes } from '../src/index.js';

// The OpenAI endpoints both the SDK instrumentation and the gateway record through (they once had a copy each).

describe('OPENAI_API_ENDPOINTS.chat', () => {
  const chat = OPENAI_API_ENDPOINTS.chat;

  it('assembles vLLM chunks into the plain response: text, tool calls, stop_reason, token ids', () => {
    const acc = chat.createAccumulator();
    acc.add({
      id: 'c1',
      model: 'm',
      prompt_token_ids: [1, 2],
      choices: [{ index: 0, delta: { role: 'assistant', content: '' }, token_ids: [] }],
    });
    acc.add({ choices: [{ index: 0, delta: { content: 'Hi' }, token_ids: [7] }] });
    acc.add({
      choices: [
        {
          index: 0,
          delta: {
            tool_calls: [{ index: 0, id: 't1', function: { name: 'f', arguments: '{"a"' } }],
          },
          token_ids: [8],
        },
      ],
    });
    acc.add({
      choices: [
        {
          index: 0,
          delta: { tool_calls: [{ index: 0, function: { arguments: ':1}' } }] },
          finish_reason: 'tool_calls',
          stop_reason: 42,
          token_ids: [9],
        },
      ],
    });
    acc.add({ choices: [], usage: { prompt_tokens: 2, completion_tokens: 3, total_tokens: 5 } });
    expect(acc.result()).toEqual({
      id: 'c1',
      model: 'm',
      prompt_token_ids: [1, 2],
      usage: { prompt_tokens: 2, completion_tokens: 3, total_tokens: 5 },
      object: 'chat.completion',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: 'Hi',
            tool_calls: [
              { id: 't1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } },
            ],
          },
          finish_reason: 'tool_calls',
          logprobs: null,
          stop_reason: 42,
          token_ids: [7, 8, 9],
        },
      ],
    });
    const bag = new AttributeBag();
    const calls = chat.responseAttributes(acc.result(), { captureContent: true }, bag);
    expect(calls).toEqual([{ id: 't1', type: 'function', name: 'f', arguments: '{"a":1}' }]);
    expect(bag.attributes[TokenAttributes.PROMPT_TOKEN_IDS]).toEqual([1, 2]);
    expect(bag.attributes[TokenAttributes.RESPONSE_TOKEN_IDS]).toEqual([7, 8, 9]);
  });

  it('adds return_token_ids and logprobs only where the caller left them unset, without touching the body', () => {
    const body = { model: 'm', messages: [], logprobs: false };
    const sent = chat.augmentBody(body, { requestTokenIds: true, requestLogprobs: 3 });
    expect(sent).toEqual({ model: 'm', messages: [], logprobs: false, return_token_ids: true });
    expect(body).toEqual({ model: 'm', messages: [], logprobs: false });
    expect(chat.augmentBody(body, { requestTokenIds: false, requestLogprobs: false })).toBe(body);
  });
});

describe('OPENAI_API_ENDPOINTS.responses', () => {
  it('yields the items that arrived when a stream ends before its final event', () => {
    const acc = OPENAI_API_ENDPOINTS.responses.createAccumulator();
    acc.add({
      type: 'response.created',
      response: { id: 'r1', model: 'm', status: 'in_progress' },
    });
    acc.add({
      type: 'response.output_item.added',
      output_index: 0,
      item: { type: 'message', role: 'assistant' },
    });
    acc.add({ type: 'response.output_text.delta', output_index: 0, delta: 'Hel', token_ids: [5] });
    acc.add({ type: 'response.output_text.delta', output_index: 0, delta: 'lo', token_ids: [6] });
    // A finished item whose `added` event was not seen still counts.
    acc.add({
      type: 'response.output_item.done',
      output_index: 1,
      item: { type: 'function_call', name: 'f', arguments: '{}' },
    });
    expect(acc.result()).toEqual({
      id: 'r1',
      model: 'm',
      status: 'in_progress',
      output: [
        {
          type: 'message',
          role: 'assistant',
          content: [{ type: 'output_text', text: 'Hello', logprobs: [] }],
          token_ids: [5, 6],
        },
        { type: 'function_call', name: 'f', arguments: '{}' },
      ],
    });
    const final = { id: 'r1', status: 'completed', output: [] };
    acc.add({ type: 'response.completed', response: final });
    expect(acc.result()).toBe(final);
  });
});

describe('OPENAI_API_ENDPOINTS.completions', () => {
  it('concatenates legacy text, token ids and logprobs per choice', () => {
    const acc = OPENAI_API_ENDPOINTS.completions.createAccumulator();
    acc.add({
      id: 'x',
      choices: [
        {
          index: 0,
          text: 'a',
          prompt_token_ids: [1],
          token_ids: [2],
          logprobs: {
            tokens: ['a'],
            token_logprobs: [-0.5],
            top_logprobs: [{ a: -0.5 }],
            text_offset: [0],
          },
        },
      ],
    });
    acc.add({
      choices: [
        {
          index: 0,
          text: 'b',
          token_ids: [3],
          finish_reason: 'stop',
          logprobs: {
            tokens: ['b'],
            token_logprobs: [-1],
            top_logprobs: [{ b: -1 }],
            text_offset: [1],
          },
        },
      ],
    });
    const result = acc.result();
    expect(result.choices).toEqual([
      {
        index: 0,
        text: 'ab',
        finish_reason: 'stop',
        logprobs: {
          tokens: ['a', 'b'],
          token_logprobs: [-0.5, -1],
          top_logprobs: [{ a: -0.5 }, { b: -1 }],
          text_offset: [0, 1],
        },
        token_ids: [2, 3],
        prompt_token_ids: [1],
      },
    ]);
    const bag = new AttributeBag();
    OPENAI_API_ENDPOINTS.completions.responseAttributes(result, { captureContent: true }, bag);
    expect(bag.attributes[TokenAttributes.PROMPT_TOKEN_IDS]).toEqual([1]);
    expect(bag.attributes[TokenAttributes.RESPONSE_TOKEN_IDS]).toEqual([2, 3]);
    expect(JSON.parse(String(bag.attributes[TokenAttributes.LOGPROBS_CONTENT]))).toEqual([
      {
        token: 'a',
        logprob: -0.5,
        bytes: null,
        top_logprobs: [{ token: 'a', logprob: -0.5, bytes: null }],
      },
      {
        token: 'b',
        logprob: -1,
        bytes: null,
        top_logprobs: [{ token: 'b', logprob: -1, bytes: null }],
      },
    ]);
  });
});
