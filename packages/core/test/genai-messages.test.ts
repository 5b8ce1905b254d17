import { describe, expect, it } from 'vitest';
import {
  chatChoiceCompletion,
  chatToolCalls,
  completionAttributes,
  promptAttributes,
  promptMessageAttributes,
} from '../src/index.js';

const capture = { captureContent: true };
const noContent = { captureContent: false };

describe('promptAttributes', () => {
  const messages = [
    { role: 'system', content: 'Be brief.' },
    {
      role: 'user',
      content: [
        { type: 'text', text: 'What is this?' },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,AA' } },
      ],
    },
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{"q":1}' } },
        { id: 'call_2', type: 'custom', custom: { name: 'grep', input: 'needle' } },
      ],
    },
    { role: 'tool', tool_call_id: 'call_1', content: 'found' },
  ];

  it('flattens chat messages, tool calls and multimodal content (as JSON)', () => {
    expect(promptAttributes(messages, capture)).toEqual({
      'gen_ai.prompt.0.role': 'system',
      'gen_ai.prompt.0.content': 'Be brief.',
      'gen_ai.prompt.1.role': 'user',
      'gen_ai.prompt.1.content': JSON.stringify(messages[1]?.content),
      'gen_ai.prompt.2.role': 'assistant',
      'gen_ai.prompt.2.tool_calls.0.id': 'call_1',
      'gen_ai.prompt.2.tool_calls.0.name': 'lookup',
      'gen_ai.prompt.2.tool_calls.0.arguments': '{"q":1}',
      'gen_ai.prompt.2.tool_calls.1.id': 'call_2',
      'gen_ai.prompt.2.tool_calls.1.name': 'grep',
      'gen_ai.prompt.2.tool_calls.1.arguments': 'needle',
      'gen_ai.prompt.3.role': 'tool',
      'gen_ai.prompt.3.content': 'found',
      'gen_ai.prompt.3.tool_call_id': 'call_1',
    });
  });

  it('leaves out content and tool-call arguments when content is not captured', () => {
    const attributes = promptAttributes(messages, noContent);
    expect(Object.keys(attributes).filter((k) => /content|arguments/.test(k))).toEqual([]);
    expect(attributes['gen_ai.prompt.2.tool_calls.0.name']).toBe('lookup');
  });

  it('keeps positions: entries that are not objects write nothing', () => {
    expect(promptAttributes([null, { role: 'user', content: 'hi' }], capture)).toEqual({
      'gen_ai.prompt.1.role': 'user',
      'gen_ai.prompt.1.content': 'hi',
    });
  });

  it('writes a single message at a given index, fields in their order', () => {
    const attributes = promptMessageAttributes(
      4,
      { role: 'assistant', content: 'ok', tool_calls: [{ id: 'c', name: 'f', arguments: '{}' }] },
      capture,
    );
    expect(Object.keys(attributes)).toEqual([
      'gen_ai.prompt.4.role',
      'gen_ai.prompt.4.content',
      'gen_ai.prompt.4.tool_calls.0.id',
      'gen_ai.prompt.4.tool_calls.0.name',
      'gen_ai.prompt.4.tool_calls.0.arguments',
    ]);
  });
});

describe('chatToolCalls', () => {
  it('reads function, custom and flat calls, skipping entries that are not objects', () => {
    expect(
      chatToolCalls({
        tool_calls: [
          { id: 'a', type: 'function', function: { name: 'f', arguments: '{}' } },
          'junk',
          { id: 'b', type: 'custom', custom: { name: 'g', input: 'x' } },
          { id: 'c', name: 'h', arguments: '[]' },
        ],
      }),
    ).toEqual([
      { id: 'a', type: 'function', name: 'f', arguments: '{}' },
      { id: 'b', type: 'custom', name: 'g', arguments: 'x' },
      { id: 'c', type: 'function', name: 'h', arguments: '[]' },
    ]);
  });

  it('falls back to the legacy function_call', () => {
    expect(chatToolCalls({ function_call: { name: 'f', arguments: '{"a":1}' } })).toEqual([
      { type: 'function', name: 'f', arguments: '{"a":1}' },
    ]);
    expect(chatToolCalls({ content: 'no calls' })).toEqual([]);
  });
});

describe('completions', () => {
  it('writes the fields of a completion in the order the object lists them', () => {
    const attributes = completionAttributes(
      1,
      { role: 'assistant', finish_reason: 'stop', content: 'Hi', refusal: 'no' },
      capture,
    );
    expect(Object.entries(attributes)).toEqual([
      ['gen_ai.completion.1.role', 'assistant'],
      ['gen_ai.completion.1.finish_reason', 'stop'],
      ['gen_ai.completion.1.content', 'Hi'],
      ['gen_ai.completion.1.refusal', 'no'],
    ]);
    const reordered = completionAttributes(
      1,
      { finish_reason: 'stop', role: 'assistant' },
      capture,
    );
    expect(Object.keys(reordered)).toEqual([
      'gen_ai.completion.1.finish_reason',
      'gen_ai.completion.1.role',
    ]);
  });

  it('leaves out content, refusal and arguments when content is not captured', () => {
    const completion = {
      role: 'assistant',
      content: 'secret',
      refusal: 'no',
      tool_calls: [{ id: 'c', name: 'f', arguments: '{"pin":1}' }],
    };
    expect(completionAttributes(0, completion, noContent)).toEqual({
      'gen_ai.completion.0.role': 'assistant',
      'gen_ai.completion.0.tool_calls.0.id': 'c',
      'gen_ai.completion.0.tool_calls.0.name': 'f',
    });
  });

  it('reads a chat choice: finish reason first, then the message', () => {
    const choice = {
      index: 0,
      finish_reason: 'tool_calls',
      message: {
        role: 'assistant',
        content: null,
        refusal: null,
        tool_calls: [{ id: 'call_9', type: 'function', function: { name: 'f', arguments: '{}' } }],
      },
    };
    expect(chatChoiceCompletion(choice)).toEqual({
      finish_reason: 'tool_calls',
      role: 'assistant',
      content: undefined,
      refusal: undefined,
      tool_calls: [{ id: 'call_9', type: 'function', name: 'f', arguments: '{}' }],
    });
    expect(chatChoiceCompletion({ finish_reason: 'length' })).toEqual({ finish_reason: 'length' });
  });
});
