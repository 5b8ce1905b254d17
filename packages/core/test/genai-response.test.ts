import { describe, expect, it } from 'vitest';
import {
  chatResponseIdentity,
  LlmCallSpanNames,
  logprobsAttributes,
  readResponsesOutput,
  readUsage,
  responseIdentityAttributes,
  responsesFinishReason,
  tokenIdAttributes,
  toolCallSpanAttributes,
  toolCallSpanName,
  usageAttributes,
} from '../src/index.js';

describe('response attributes', () => {
  it('writes the identity of a response', () => {
    const response = { id: 'chatcmpl-1', model: 'm', system_fingerprint: 'fp', object: 'x' };
    expect(responseIdentityAttributes(chatResponseIdentity(response))).toEqual({
      'gen_ai.response.id': 'chatcmpl-1',
      'gen_ai.response.model': 'm',
      'gen_ai.openai.system_fingerprint': 'fp',
    });
    expect(responseIdentityAttributes({ model: 'm' })).toEqual({ 'gen_ai.response.model': 'm' });
  });

  it('reads chat and Responses-API usage in upstream names', () => {
    const chat = readUsage({
      prompt_tokens: 10,
      completion_tokens: 5,
      total_tokens: 15,
      completion_tokens_details: { reasoning_tokens: 2 },
      prompt_tokens_details: { cached_tokens: 4 },
    });
    expect(usageAttributes(chat ?? {})).toEqual({
      'gen_ai.usage.prompt_tokens': 10,
      'gen_ai.usage.completion_tokens': 5,
      'gen_ai.usage.total_tokens': 15,
      'gen_ai.usage.reasoning_tokens': 2,
      'gen_ai.usage.cache_read_input_tokens': 4,
    });
    expect(
      readUsage({
        input_tokens: 3,
        output_tokens: 4,
        output_tokens_details: { reasoning_tokens: 1 },
      }),
    ).toEqual({
      prompt_tokens: 3,
      completion_tokens: 4,
      total_tokens: undefined,
      reasoning_tokens: 1,
      cache_read_input_tokens: undefined,
    });
    expect(readUsage('none')).toBeUndefined();
  });

  it('writes token ids when present and logprobs as JSON', () => {
    expect(tokenIdAttributes({ prompt_token_ids: [1, 2], response_token_ids: [] })).toEqual({
      prompt_token_ids: [1, 2],
      response_token_ids: [],
    });
    expect(tokenIdAttributes({})).toEqual({});
    const content = [{ token: 'a', logprob: -0.5, bytes: [97], top_logprobs: [] }];
    expect(logprobsAttributes({ content, refusal: null })).toEqual({
      'logprobs.content': JSON.stringify(content),
    });
  });

  it('writes the child span of a tool call', () => {
    const call = { id: 'call_1', name: 'lookup', arguments: '{"q":1}' };
    expect(toolCallSpanName(call)).toBe('tool_call.lookup');
    expect(toolCallSpanName({})).toBe('tool_call.unknown');
    expect(toolCallSpanAttributes(call, true)).toEqual({
      'tool.name': 'lookup',
      'tool.parameters': '{"q":1}',
      'tool.call.id': 'call_1',
      'tool.call.type': 'function',
    });
    expect(toolCallSpanAttributes({ ...call, type: 'custom' }, false)).toEqual({
      'tool.name': 'lookup',
      'tool.call.id': 'call_1',
      'tool.call.type': 'custom',
    });
    expect(LlmCallSpanNames.CHAT).toBe('openai.chat.completion');
  });
});

describe('Responses-API output', () => {
  const response = {
    status: 'completed',
    output: [
      { type: 'reasoning', token_ids: [1] },
      {
        type: 'message',
        token_ids: [2, 3],
        content: [
          { type: 'output_text', text: 'Hel', logprobs: [{ token: 'Hel' }] },
          { type: 'refusal', refusal: 'x' },
          { type: 'output_text', text: 'lo', logprobs: [{ token: 'lo' }] },
        ],
      },
      { type: 'function_call', call_id: 'call_1', id: 'fc_1', name: 'f', arguments: '{}' },
      { type: 'custom_tool_call', id: 'ct_1', name: 'g', input: 'raw' },
    ],
  };

  it('folds the output items into one completion', () => {
    expect(readResponsesOutput(response)).toEqual({
      text: 'Hello',
      toolCalls: [
        { id: 'call_1', type: 'function', name: 'f', arguments: '{}' },
        { id: 'ct_1', type: 'function', name: 'g', arguments: 'raw' },
      ],
      responseTokenIds: [1, 2, 3],
      logprobs: [{ token: 'Hel' }, { token: 'lo' }],
    });
    expect(readResponsesOutput({ output: [] })).toEqual({
      text: undefined,
      toolCalls: [],
      responseTokenIds: undefined,
      logprobs: [],
    });
  });

  it('maps the status to a chat finish reason', () => {
    expect(responsesFinishReason({ status: 'completed' }, false)).toBe('stop');
    expect(responsesFinishReason({ status: 'completed' }, true)).toBe('tool_calls');
    const incomplete = {
      status: 'incomplete',
      incomplete_details: { reason: 'max_output_tokens' },
    };
    expect(responsesFinishReason(incomplete, false)).toBe('length');
    expect(responsesFinishReason({ status: 'incomplete' }, false)).toBe('incomplete');
    expect(responsesFinishReason({ status: 'failed' }, false)).toBe('failed');
  });
});
