import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ChatMessage, PreparedCall } from '../src/index.js';
import {
  conversationsOf,
  type ExportRecord,
  prepareRollout,
  taskIdOf,
  writeExport,
} from '../src/index.js';
import { call } from './support/calls.js';
import { recordOf, renderPrompt, replyIds, rolloutOf } from './support/fixtures.js';
import { tempDir } from './support/run.js';
import { SCENARIO } from './support/scenario.js';

const fixture = (id: string) => SCENARIO.find((r) => r.rollout_id === id)!;

describe('prepareRollout (from the adapter triplets of @arclight/openai-style spans)', () => {
  it('extracts ids, logprobs, messages (OpenAI tool-call shape), tools and the identical reward', () => {
    const prepared = prepareRollout(recordOf(fixture('ro-r1')));
    expect(prepared).toMatchObject({
      rollout_id: 'ro-r1',
      reward: 1,
      has_reward: true,
      mode: 'train',
    });
    const [first, second] = prepared.calls;
    const f = fixture('ro-r1').calls;
    expect(first!.prompt_ids).toEqual(renderPrompt(f[0]!.prompt));
    expect(first!.response_ids).toEqual(replyIds(f[0]!.reply));
    expect(first!.logprobs).toHaveLength(first!.response_ids!.length);
    expect(first!.agent_name).toBe('solver');
    expect(first!.response_message).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          id: 'call_a',
          type: 'function',
          function: { name: 'search', arguments: '{"query":"q1 a"}' },
        },
      ],
    });
    expect(first!.finish_reason).toBe('tool_calls');
    expect(first!.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'search',
          description: 'Search the knowledge base',
          parameters: {
            type: 'object',
            properties: { query: { type: 'string' } },
            required: ['query'],
          },
        },
      },
    ]);
    expect(second!.prompt_messages.map((m) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
    ]);
    expect(second!.prompt_messages[3]).toEqual({
      role: 'tool',
      content: 'result for a',
      tool_call_id: 'call_a',
    });
  });

  it('no reward → the fill value; no token ids → null ids', () => {
    const prepared = prepareRollout(recordOf(fixture('ro-r6')), { rewardFillna: -1 });
    expect(prepared).toMatchObject({ reward: -1, has_reward: false });
    expect(prepared.calls.every((c) => c.prompt_ids === null && c.response_ids === null)).toBe(
      true,
    );
    expect(prepared.calls.every((c) => c.response_message !== null)).toBe(true);
  });

  it('explicit per-call messages (TraceToMessages shape) take precedence over raw content', () => {
    const record = recordOf(fixture('ro-r4'));
    record.messages = [
      {
        messages: [
          { role: 'user', content: 'override' },
          { role: 'assistant', content: 'reply' },
        ],
        tools: null,
      },
      null,
    ];
    const [first, second] = prepareRollout(record).calls;
    expect(first!.prompt_messages).toEqual([{ role: 'user', content: 'override' }]);
    expect(first!.response_message).toEqual({ role: 'assistant', content: 'reply' });
    expect(second!.prompt_messages[0]).toEqual({ role: 'system', content: 'Check SQL.' });
  });

  it('logprobs that do not align with the response ids are dropped', () => {
    const record = recordOf(fixture('ro-r1'));
    const response = record.triplets[0]!.response as { logprobs: unknown[] };
    response.logprobs = response.logprobs.slice(1);
    expect(prepareRollout(record).calls[0]!.logprobs).toBeNull();
  });
});

describe('conversationsOf', () => {
  it('a linear tool-using agent is one conversation whose replies are the generated turns', () => {
    const [conversation, ...rest] = conversationsOf(
      prepareRollout(recordOf(fixture('ro-r1'))).calls,
    );
    expect(rest).toEqual([]);
    expect(conversation!.messages.map((m) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'assistant',
    ]);
    expect([...conversation!.generated.keys()]).toEqual([2, 4]);
    expect(conversation!.prompt_length).toBe(2);
  });

  it('compares messages as messageKey does: null content = "", tool-call arguments as parsed JSON', () => {
    const withMessages = (
      index: number,
      prompt_messages: ChatMessage[],
      response_message: ChatMessage,
    ): PreparedCall => ({ ...call(index, null, null), prompt_messages, response_message });
    const toolCall = (args: string): ChatMessage => ({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: args } }],
    });
    const user: ChatMessage = { role: 'user', content: 'q' };
    const result: ChatMessage = { role: 'tool', content: 'r', tool_call_id: 'c1' };
    const done: ChatMessage = { role: 'assistant', content: 'done' };
    const x: ChatMessage = { role: 'assistant', content: 'x' };
    const calls = [
      withMessages(0, [user], toolCall('{"a": 1}')),
      // The same turn re-recorded: content '' for null, arguments without the space: the same conversation.
      withMessages(1, [{ ...user }, { ...toolCall('{"a":1}'), content: '' }, result], done),
      // Other arguments: a new conversation.
      withMessages(2, [user, toolCall('{"a":2}'), result, done], x),
      // Another tool_call_id: a new conversation.
      withMessages(3, [user, toolCall('{"a":2}'), { ...result, tool_call_id: 'c2' }, done, x], {
        role: 'assistant',
        content: null,
      }),
      // Equal copies of every message, '' for the null reply: the same conversation.
      withMessages(
        4,
        [
          user,
          toolCall('{"a":2}'),
          { ...result, tool_call_id: 'c2' },
          done,
          x,
          { ...x, content: '' },
        ],
        done,
      ),
    ];
    expect(conversationsOf(calls).map((c) => c.calls.map((call) => call.turn_index))).toEqual([
      [0, 1],
      [2],
      [3, 4],
    ]);
  });

  it('two agents with unrelated prompts are two conversations', () => {
    const conversations = conversationsOf(prepareRollout(recordOf(fixture('ro-r4'))).calls);
    expect(conversations.map((c) => c.calls.map((x) => x.agent_name))).toEqual([
      ['writer'],
      ['checker'],
    ]);
  });
});

describe('taskIdOf', () => {
  it('metadata.task_id, then metadata.data_id, then a hash of the key-sorted input', () => {
    const base = rolloutOf(fixture('ro-r1'));
    expect(taskIdOf({ ...base, metadata: { task_id: 'T', data_id: 'D' } })).toBe('T');
    expect(taskIdOf({ ...base, metadata: { data_id: 'D' } })).toBe('D');
    const a = taskIdOf({ ...base, input: { a: 1, b: [1, { c: 2, d: 3 }] } });
    const b = taskIdOf({ ...base, input: { b: [1, { d: 3, c: 2 }], a: 1 } });
    expect(a).toMatch(/^task-[0-9a-f]{16}$/);
    expect(a).toBe(b);
    expect(taskIdOf({ ...base, input: { a: 2 } })).not.toBe(a);
  });
});

describe('messages rebuilt from raw_content', () => {
  it('rebuilds raw messages with their keys in a fixed order (role, content, name, tool_call_id, refusal, tool_calls)', () => {
    const prepared = prepareRollout({
      rollout: { ...rolloutOf(fixture('ro-r1')), rollout_id: 'ro-keys' },
      attempt_id: 'at-keys',
      triplets: [
        {
          prompt: {
            raw_content: [
              // Recorded keys in another order, null and absent fields, an escaped string.
              {
                refusal: 'no',
                tool_call_id: 'c1',
                name: 'n',
                content: 'a "b"\u2028',
                role: 'tool',
              },
              { role: 'user', content: null, name: null },
              { content: 'no role: dropped' },
              {
                tool_calls: [
                  { arguments: { x: 1 }, name: 'f' },
                  { id: 'c9', function: { name: 'g' } },
                ],
                name: 'bot',
                role: 'assistant',
              },
              { role: 'user', content: '[{"type":"text","text":"hi"}]' },
              { role: 'user', content: '[not json' },
            ],
          },
          response: { raw_content: [{ content: 'ok', finish_reason: 'stop' }] },
          reward: null,
          metadata: {},
        },
      ],
    });
    const [only] = prepared.calls;
    expect(JSON.stringify(only!.prompt_messages)).toBe(
      JSON.stringify([
        { role: 'tool', content: 'a "b"\u2028', name: 'n', tool_call_id: 'c1', refusal: 'no' },
        { role: 'user', content: '' },
        {
          role: 'assistant',
          name: 'bot',
          content: null,
          tool_calls: [
            { id: 'call_0', type: 'function', function: { name: 'f', arguments: '{"x":1}' } },
            { id: 'c9', type: 'function', function: { name: 'g', arguments: '{}' } },
          ],
        },
        { role: 'user', content: [{ type: 'text', text: 'hi' }] },
        { role: 'user', content: '[not json' },
      ]),
    );
    expect(JSON.stringify(only!.response_message)).toBe('{"role":"assistant","content":"ok"}');
  });

  it('chat rows write each message with its keys in a fixed order (openai-sft, trl-sft: exact text)', async () => {
    const record: ExportRecord = {
      rollout: { ...rolloutOf(fixture('ro-r1')), rollout_id: 'ro-order' },
      attempt_id: 'at-order',
      triplets: [
        {
          prompt: {
            raw_content: [
              { content: 'u\n"1"', role: 'user', name: 'ann' },
              {
                tool_calls: [{ arguments: '{"q":"x"}', name: 'f', id: 'c1' }],
                role: 'assistant',
                content: null,
              },
              { tool_call_id: 'c1', content: 'r', role: 'tool' },
            ],
          },
          response: {
            raw_content: [{ role: 'assistant', content: 'done', finish_reason: 'stop' }],
          },
          reward: 1,
          metadata: {},
        },
      ],
    };
    const lines = async (format: string): Promise<string> => {
      const out = join(tempDir(), `${format}.jsonl`);
      await writeExport([record], { format, out });
      return readFileSync(out, 'utf8');
    };
    const prompt = (args: string) =>
      '{"role":"user","content":"u\\n\\"1\\"","name":"ann"},' +
      '{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":' +
      `{"name":"f","arguments":${args}}}]`;
    expect(await lines('openai-sft')).toBe(
      `{"messages":[${prompt('"{\\"q\\":\\"x\\"}"')},"weight":0},` +
        '{"role":"tool","content":"r","tool_call_id":"c1"},' +
        '{"role":"assistant","content":"done","weight":1}]}\n',
    );
    expect(await lines('trl-sft')).toBe(
      `{"messages":[${prompt('{"q":"x"}')}},` +
        '{"role":"tool","content":"r","tool_call_id":"c1"},' +
        '{"role":"assistant","content":"done"}]}\n',
    );
  });
});
