import { ValidationError } from '@arclight/core';
import { describe, expect, it } from 'vitest';
import { groupGenaiDict, TraceToMessages } from '../src/index.js';
import { makeSpans } from './support/build-spans.js';

describe('groupGenaiDict', () => {
  it('groups indexed keys into lists (gaps close up) and the rest into objects', () => {
    expect(
      groupGenaiDict(
        {
          'gen_ai.prompt.2.role': 'user',
          'gen_ai.prompt.0.role': 'system',
          'gen_ai.prompt.0.content': 'Be brief.',
          'gen_ai.prompt.2.tool_calls.0.id': 'c1',
          'gen_ai.prompt.extra': 'dropped',
          'gen_ai.promptx.0': 'not under the prefix',
        },
        'gen_ai.prompt',
      ),
    ).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', tool_calls: [{ id: 'c1' }] },
    ]);
    expect(
      groupGenaiDict({ 'gen_ai.request.model': 'm', 'gen_ai.request.a.b': 1 }, 'gen_ai.request'),
    ).toEqual({
      model: 'm',
      a: { b: 1 },
    });
    expect(groupGenaiDict({}, 'tool')).toEqual({});
  });
});

describe('TraceToMessages', () => {
  it('rebuilds each call’s conversation with tool calls from child spans and tool definitions', () => {
    const spans = makeSpans([
      {
        id: 'call',
        name: 'openai.chat.completion',
        attrs: {
          'gen_ai.prompt.0.role': 'user',
          'gen_ai.prompt.0.content': 'Weather?',
          'gen_ai.request.functions.0.name': 'get_weather',
          'gen_ai.request.functions.0.parameters': '{"type":"object"}',
          'gen_ai.completion.0.role': 'assistant',
        },
      },
      {
        id: 'tool',
        parent: 'call',
        name: 'tool_call.get_weather',
        attrs: {
          'tool.name': 'get_weather',
          'tool.parameters': '{}',
          'tool.call.id': 'c1',
          'tool.call.type': 'function',
        },
      },
      { id: 'other', name: 'db.query', attrs: { 'db.system': 'sqlite' } },
    ]);
    expect(new TraceToMessages().adapt(spans)).toEqual([
      {
        messages: [
          { content: 'Weather?', role: 'user' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              { id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{}' } },
            ],
          },
        ],
        tools: [
          {
            type: 'function',
            function: { name: 'get_weather', description: '', parameters: { type: 'object' } },
          },
        ],
      },
    ]);
  });

  it('fails where upstream cannot build a chat message', () => {
    const spans = (attrs: Record<string, string>) => makeSpans([{ id: 'a', attrs }]);
    const adapter = new TraceToMessages();
    expect(() => adapter.adapt(spans({ 'gen_ai.prompt.0.content': 'no role' }))).toThrow(
      ValidationError,
    );
    expect(() =>
      adapter.adapt(spans({ 'gen_ai.prompt.0.role': 'tool', 'gen_ai.prompt.0.content': 'x' })),
    ).toThrow(/tool_call_id/);
    expect(() => adapter.adapt(spans({ 'gen_ai.prompt.role': 'user' }))).toThrow(/not a list/);
    expect(() => adapter.adapt(spans({ 'gen_ai.request.functions.0.name': 'f' }))).toThrow(
      /parameters/,
    );
  });
});
