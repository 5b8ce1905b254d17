import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { grade } from '../src/agent.js';
import { weatherTasks } from '../src/tasks.js';

const message = (calls: { name: string; arguments: string }[]): OpenAI.Chat.ChatCompletionMessage =>
  ({
    role: 'assistant',
    content: null,
    refusal: null,
    tool_calls: calls.map((c, i) => ({ id: `call_${i}`, type: 'function', function: c })),
  }) as OpenAI.Chat.ChatCompletionMessage;

describe('real-model-sft task', () => {
  it('grades one get_weather call naming the city 1, other calls 0.25, prose 0', () => {
    expect(
      grade(message([{ name: 'get_weather', arguments: '{"city":" paris "}' }]), 'Paris'),
    ).toBe(1);
    expect(grade(message([{ name: 'get_weather', arguments: '{"city":"Lyon"}' }]), 'Paris')).toBe(
      0.25,
    );
    expect(grade(message([{ name: 'get_weather', arguments: 'not json' }]), 'Paris')).toBe(0.25);
    expect(
      grade(
        message([
          { name: 'get_weather', arguments: '{"city":"Paris"}' },
          { name: 'get_weather', arguments: '{"city":"Paris"}' },
        ]),
        'Paris',
      ),
    ).toBe(0.25);
    expect(grade(message([{ name: 'search', arguments: '{"city":"Paris"}' }]), 'Paris')).toBe(0);
    expect(grade(message([]), 'Paris')).toBe(0);
  });

  it('evaluates on cities it never trains on', () => {
    const { train, heldOut } = weatherTasks();
    expect(train).toHaveLength(24);
    expect(heldOut).toHaveLength(12);
    const trained = new Set(train.map((t) => t.city));
    expect(heldOut.some((t) => trained.has(t.city))).toBe(false);
    for (const t of [...train, ...heldOut]) expect(t.question).toContain(t.city);
  });
});
