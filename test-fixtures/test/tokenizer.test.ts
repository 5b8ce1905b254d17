import { describe, expect, it } from 'vitest';
import {
  FixtureTokenizer,
  IM_END_ID,
  IM_START_ID,
  renderChatTemplate,
  SPECIAL_TOKENS,
  VOCAB_SIZE,
} from '../src/index.js';

const tok = new FixtureTokenizer();

const samples = [
  '',
  'Hello, world!',
  '  leading and trailing spaces  ',
  'tabs\tand\nnew\r\nlines\n\n',
  'numbers 1234567 and 3.14159',
  'unicode: héllo wörld — 日本語 😀👍🏽',
  'punctuation!!! ??? ... {"json": [1, 2, 3]}',
  'specials <|im_start|>user\nhi<|im_end|> <tool_call>x</tool_call>',
  'lone surrogate \ud800 here',
  '<|im_end',
];

describe('FixtureTokenizer', () => {
  it.each(samples)('round-trips %j', (text) => {
    const ids = tok.encode(text);
    expect(tok.decode(ids)).toBe(text);
    expect(tok.tokenize(text).join('')).toBe(text);
    for (const id of ids) expect(id >= 0 && id < VOCAB_SIZE).toBe(true);
  });

  it('is deterministic across instances', () => {
    const other = new FixtureTokenizer();
    for (const s of samples) expect(other.encode(s)).toEqual(tok.encode(s));
    expect(other.decode(tok.encode(samples[5]!))).toBe(samples[5]);
  });

  it('maps special tokens to their fixed ids', () => {
    expect(tok.encode('<|im_start|>')).toEqual([IM_START_ID]);
    expect(tok.encode('<|im_end|>')).toEqual([IM_END_ID]);
    expect(SPECIAL_TOKENS['<|im_start|>']).toBe(1);
    expect(SPECIAL_TOKENS['<|im_end|>']).toBe(2);
    expect(tok.encode('a<|im_end|>b')).toEqual([...tok.encode('a'), 2, ...tok.encode('b')]);
  });

  it('can treat special-token literals as plain text', () => {
    const ids = tok.encode('<|im_end|>', { allowSpecial: false });
    expect(ids).not.toContain(IM_END_ID);
    expect(tok.decode(ids)).toBe('<|im_end|>');
  });

  it('produces word-like tokens and distinct ids for distinct texts', () => {
    expect(tok.tokenize('Hello there')).toEqual(['Hel', 'lo', ' th', 'ere']);
    expect(tok.encode('cat')).not.toEqual(tok.encode('cab'));
  });

  it('rejects ids outside the vocabulary', () => {
    expect(() => tok.decode([999])).toThrow(RangeError);
    expect(() => tok.decode([VOCAB_SIZE])).toThrow(/not in the fixture vocabulary/);
  });

  it('renders a ChatML chat template with tools and tool results', () => {
    const prompt = tok.render(
      [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'c1',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'c1', content: 'sunny' },
      ],
      [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } }],
    );
    expect(prompt.startsWith('<|im_start|>system\nBe brief.\n\n# Tools\n')).toBe(true);
    expect(prompt).toContain('<tools>\n{"type":"function","function":{"name":"get_weather"');
    expect(prompt).toContain(
      '<|im_start|>assistant\n<tool_call>\n{"name": "get_weather", "arguments": {"city":"Paris"}}\n</tool_call><|im_end|>\n',
    );
    expect(prompt).toContain(
      '<|im_start|>user\n<tool_response>\nsunny\n</tool_response><|im_end|>\n',
    );
    expect(prompt.endsWith('<|im_start|>assistant\n')).toBe(true);
    expect(tok.encodeChat([{ role: 'user', content: 'hi' }])).toEqual(
      tok.encode('<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n'),
    );
    expect(
      renderChatTemplate([{ role: 'user', content: 'hi' }], [], { addGenerationPrompt: false }),
    ).toBe('<|im_start|>user\nhi<|im_end|>\n');
  });
});
