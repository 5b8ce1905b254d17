import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import { describe, expect, it } from 'vitest';
import { FixtureTokenizer, IM_END_ID } from '../src/index.js';
import {
  RETURN_IDS,
  timeTool,
  useFixtureLlm,
  type VllmChoiceExtras,
  weatherTool,
} from './helpers.js';

type Choice = ChatCompletion.Choice & VllmChoiceExtras;
type ChunkChoice = ChatCompletionChunk.Choice & VllmChoiceExtras;

const env = useFixtureLlm({ recordings: false });
const tok = new FixtureTokenizer();
const ask: ChatCompletionMessageParam[] = [{ role: 'user', content: 'Weather in Paris?' }];

describe('tool calling responder', () => {
  it('calls the first tool with arguments built from its schema', async () => {
    const res = await env.client.chat.completions.create({
      model: 'fixture-tools',
      messages: ask,
      tools: [weatherTool, timeTool],
      ...RETURN_IDS,
    });
    const choice = res.choices[0] as Choice;
    expect(choice.finish_reason).toBe('tool_calls');
    expect(choice.message.content).toBeNull();
    const call = choice.message.tool_calls![0]!;
    if (call.type !== 'function') throw new Error('expected a function tool call');
    expect(call.id).toMatch(/^call_[0-9a-f]{24}$/);
    expect(call.function.name).toBe('get_weather');
    expect(JSON.parse(call.function.arguments)).toEqual({
      city: 'city-value',
      unit: 'celsius',
      days: 2,
    });
    const raw = tok.decode(choice.token_ids!);
    expect(raw).toBe(
      `<tool_call>\n{"name": "get_weather", "arguments": ${call.function.arguments}}\n</tool_call><|im_end|>`,
    );
    expect(res.usage!.completion_tokens).toBe(choice.token_ids!.length);
  });

  it('completes a round trip: tool call, tool result, summarising answer', async () => {
    const first = await env.client.chat.completions.create({
      model: 'fixture-tools',
      messages: ask,
      tools: [weatherTool],
    });
    const assistant = first.choices[0]!.message;
    const call = assistant.tool_calls![0]!;
    const followUp = await env.client.chat.completions.create({
      model: 'fixture-tools',
      tools: [weatherTool],
      messages: [
        ...ask,
        assistant,
        { role: 'tool', tool_call_id: call.id, content: '{"temp": 21}' },
      ],
      ...RETURN_IDS,
    });
    const choice = followUp.choices[0] as Choice;
    expect(choice.finish_reason).toBe('stop');
    expect(choice.message.content).toBe('Based on the tool results: get_weather: {"temp": 21}');
    expect(choice.message.tool_calls ?? []).toEqual([]);
    expect(choice.token_ids!.at(-1)).toBe(IM_END_ID);
  });

  it('renders a generated tool call with the same tokens in the next prompt (prefix-preserving)', async () => {
    const first = await env.client.chat.completions.create({
      model: 'fixture-tools',
      messages: ask,
      tools: [weatherTool],
      ...RETURN_IDS,
    });
    const choice = first.choices[0] as Choice;
    const call = choice.message.tool_calls![0]!;
    const followUp = await env.client.chat.completions.create({
      model: 'fixture-tools',
      tools: [weatherTool],
      messages: [
        ...ask,
        choice.message as ChatCompletionMessageParam,
        { role: 'tool', tool_call_id: call.id, content: '{"temp": 21}' },
      ],
      ...RETURN_IDS,
    });
    const promptIds = (r: unknown) => (r as { prompt_token_ids: number[] }).prompt_token_ids;
    const next = promptIds(followUp);
    const turn = [...promptIds(first), ...choice.token_ids!];
    expect(turn.length).toBeGreaterThan(promptIds(first).length);
    expect(next.slice(0, turn.length)).toEqual(turn);
    expect(tok.decode(next)).toBe(
      tok.render(
        [
          { role: 'user', content: 'Weather in Paris?' },
          choice.message as never,
          { role: 'tool', tool_call_id: call.id, content: '{"temp": 21}' },
        ],
        [weatherTool],
      ),
    );
  });

  it('streams a tool call: id + name first, then argument fragments', async () => {
    const plain = await env.client.chat.completions.create({
      model: 'fixture-tools',
      messages: ask,
      tools: [weatherTool],
      ...RETURN_IDS,
    });
    const stream = await env.client.chat.completions.create({
      model: 'fixture-tools',
      messages: ask,
      tools: [weatherTool],
      stream: true,
      ...RETURN_IDS,
    });
    const choices: ChunkChoice[] = [];
    for await (const chunk of stream) choices.push(...(chunk.choices as ChunkChoice[]));
    const toolDeltas = choices.flatMap((c) => c.delta.tool_calls ?? []);
    expect(toolDeltas[0]!.id).toMatch(/^call_/);
    expect(toolDeltas[0]!.function?.name).toBe('get_weather');
    expect(
      toolDeltas.slice(1).every((d) => d.id === undefined && d.function?.name === undefined),
    ).toBe(true);
    expect(toolDeltas.length).toBeGreaterThan(3);
    const args = toolDeltas.map((d) => d.function?.arguments ?? '').join('');
    const plainCall = plain.choices[0]!.message.tool_calls![0]!;
    if (plainCall.type !== 'function') throw new Error('expected a function tool call');
    expect(args).toBe(plainCall.function.arguments);
    expect(choices.flatMap((c) => c.token_ids ?? [])).toEqual(
      (plain.choices[0] as Choice).token_ids,
    );
    expect(choices.at(-1)!.finish_reason).toBe('tool_calls');
  });

  it('calls the tools named by the x-fixture-tool-call header, with any model', async () => {
    const res = await env.client.chat.completions.create(
      { model: 'some-model', messages: ask, tools: [weatherTool, timeTool] },
      { headers: { 'x-fixture-tool-call': 'get_time, get_weather' } },
    );
    const calls = res.choices[0]!.message.tool_calls!;
    expect(calls.map((c) => (c.type === 'function' ? c.function.name : c.type))).toEqual([
      'get_time',
      'get_weather',
    ]);
    const time = calls[0]!;
    expect(time.type === 'function' && JSON.parse(time.function.arguments)).toEqual({
      zone: 'UTC',
    });
    expect(new Set(calls.map((c) => c.id)).size).toBe(2);
  });

  it('honours a named tool_choice and tool_choice "none"', async () => {
    const named = await env.client.chat.completions.create({
      model: 'fixture-tools',
      messages: ask,
      tools: [weatherTool, timeTool],
      tool_choice: { type: 'function', function: { name: 'get_time' } },
    });
    const call = named.choices[0]!.message.tool_calls![0]!;
    expect(call.type === 'function' && call.function.name).toBe('get_time');
    const none = await env.client.chat.completions.create({
      model: 'fixture-tools',
      messages: ask,
      tools: [weatherTool],
      tool_choice: 'none',
    });
    expect(none.choices[0]!.message.tool_calls ?? []).toEqual([]);
    expect(none.choices[0]!.message.content).toBe('Fixture answer to: Weather in Paris?');
  });

  it('does not call tools for other models without the header', async () => {
    const res = await env.client.chat.completions.create({
      model: 'm',
      messages: ask,
      tools: [weatherTool],
    });
    expect(res.choices[0]!.finish_reason).toBe('stop');
    expect(res.choices[0]!.message.content).toBe('Fixture answer to: Weather in Paris?');
  });
});
