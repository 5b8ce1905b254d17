import { describe, expect, it } from 'vitest';
import {
  chatSamplingParameters,
  GEN_AI_SYSTEM_OPENAI,
  readToolDefinitions,
  requestAttributes,
  stopSequences,
  toolDefinitionAttributes,
} from '../src/index.js';

describe('requestAttributes', () => {
  it('maps each parameter to its gen_ai key, in the order given', () => {
    const attributes = requestAttributes({
      type: 'chat',
      system: GEN_AI_SYSTEM_OPENAI,
      model: 'gpt-4.1',
      max_tokens: 64,
      temperature: 0.2,
      stop: ['\n'],
      streaming: false,
      return_token_ids: true,
      top_k: undefined,
    });
    expect(Object.entries(attributes)).toEqual([
      ['gen_ai.request.type', 'chat'],
      ['gen_ai.system', 'OpenAI'],
      ['gen_ai.request.model', 'gpt-4.1'],
      ['gen_ai.request.max_tokens', 64],
      ['gen_ai.request.temperature', 0.2],
      ['gen_ai.request.stop', ['\n']],
      ['gen_ai.request.streaming', false],
      ['gen_ai.request.return_token_ids', true],
    ]);
    const streamingFirst = requestAttributes({ streaming: true, type: 'chat' });
    expect(Object.keys(streamingFirst)).toEqual([
      'gen_ai.request.streaming',
      'gen_ai.request.type',
    ]);
  });

  it('ignores unknown parameters and writes objects as JSON', () => {
    const parameters = { seed: { a: 1 }, bogus: 1 } as Parameters<typeof requestAttributes>[0];
    expect(requestAttributes(parameters)).toEqual({ 'gen_ai.request.seed': '{"a":1}' });
    const custom = requestAttributes({ seed: { a: 1 } }, { toJson: () => 'custom' });
    expect(custom).toEqual({ 'gen_ai.request.seed': 'custom' });
  });

  it('reads the sampling settings of a chat body', () => {
    const body = {
      temperature: 1,
      top_p: 0.5,
      frequency_penalty: 0,
      presence_penalty: 0.1,
      seed: 7,
      n: 2,
    };
    expect(chatSamplingParameters({ ...body, model: 'm', stop: 'x' })).toEqual(body);
  });

  it('accepts a string or an array of strings as stop sequences', () => {
    expect(stopSequences('\n')).toBe('\n');
    expect(stopSequences(['a', 'b'])).toEqual(['a', 'b']);
    expect(stopSequences([])).toEqual([]);
    expect(stopSequences(['a', 1])).toBeUndefined();
    expect(stopSequences(null)).toBeUndefined();
  });
});

describe('tool definitions', () => {
  const schema = { type: 'object', properties: { city: { type: 'string' } } };

  it('reads chat, legacy, custom and flat tools, skipping nameless ones', () => {
    const definitions = readToolDefinitions([
      {
        type: 'function',
        function: { name: 'weather', description: 'Weather', parameters: schema },
      },
      { name: 'legacy', parameters: schema },
      { type: 'custom', custom: { name: 'grep', description: 'Search', format: { type: 'text' } } },
      { type: 'web_search' },
      'junk',
    ]);
    expect(definitions).toEqual([
      { name: 'weather', description: 'Weather', parameters: schema },
      { name: 'legacy', description: undefined, parameters: schema },
      { name: 'grep', description: 'Search', parameters: { type: 'text' } },
    ]);
  });

  it('reads the schema under the keys given, and custom tools only when asked', () => {
    const items = [
      { name: 'a', inputSchema: schema },
      { type: 'custom', custom: { name: 'grep' } },
    ];
    expect(
      readToolDefinitions(items, { schemaKeys: ['parameters', 'inputSchema'], customTools: false }),
    ).toEqual([{ name: 'a', description: undefined, parameters: schema }]);
  });

  it('writes names, descriptions and JSON schemas', () => {
    const definitions = [
      { name: 'weather', description: 'Weather', parameters: schema },
      { name: 'noop' },
    ];
    expect(toolDefinitionAttributes(definitions)).toEqual({
      'gen_ai.request.functions.0.name': 'weather',
      'gen_ai.request.functions.0.description': 'Weather',
      'gen_ai.request.functions.0.parameters': JSON.stringify(schema),
      'gen_ai.request.functions.1.name': 'noop',
    });
    expect(toolDefinitionAttributes(definitions, { details: false })).toEqual({
      'gen_ai.request.functions.0.name': 'weather',
      'gen_ai.request.functions.1.name': 'noop',
    });
  });
});
