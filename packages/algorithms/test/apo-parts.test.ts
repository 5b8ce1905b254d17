import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { TracerTraceToTriplet } from '@arclight/adapter';
import { LLM, PromptTemplate, ValidationError } from '@arclight/core';
import { InMemoryLightningStore } from '@arclight/store';
import { applyCritique, critiqueExperiments } from '@arclight/test-fixtures';
import { describe, expect, it } from 'vitest';
import {
  APO,
  batchIterOverDataset,
  DEFAULT_APPLY_EDIT_PROMPT_FILES,
  DEFAULT_GRADIENT_PROMPT_FILES,
  fillPlaceholders,
  parsePromptFile,
  renderExperiments,
  renderPromptFile,
  SeededRandom,
  unwrapCodeFence,
} from '../src/index.js';

describe('prompt files', () => {
  it('ships three gradient and two apply-edit prompts, each a system and a user message', () => {
    expect(DEFAULT_GRADIENT_PROMPT_FILES.map((f) => basename(f))).toEqual([
      'text-gradient-1.md',
      'text-gradient-2.md',
      'text-gradient-3.md',
    ]);
    expect(DEFAULT_APPLY_EDIT_PROMPT_FILES.map((f) => basename(f))).toEqual([
      'apply-edit-1.md',
      'apply-edit-2.md',
    ]);
    for (const file of DEFAULT_GRADIENT_PROMPT_FILES) {
      const [system, user] = renderPromptFile(file, { prompt_template: 'T {x}', experiments: 'E' });
      expect(system!.role).toBe('system');
      expect(user!.role).toBe('user');
      expect(user!.content).toContain('<prompt_template>\nT {x}\n</prompt_template>');
      expect(user!.content).toContain('<experiments>\nE\n</experiments>');
      expect(system!.content + user!.content).not.toMatch(
        /\{(prompt_template|experiments|critique)\}/,
      );
    }
    for (const file of DEFAULT_APPLY_EDIT_PROMPT_FILES) {
      const messages = renderPromptFile(file, { prompt_template: 'T', critique: 'C' });
      expect(messages.map((m) => m.role)).toEqual(['system', 'user']);
      expect(messages[1]!.content).toContain('<critique>\nC\n</critique>');
    }
  });

  it('drops the notes before the first role marker and rejects files without markers', () => {
    const text = readFileSync(DEFAULT_APPLY_EDIT_PROMPT_FILES[0]!, 'utf8');
    expect(text).toMatch(/^<!-- APO apply-edit/);
    expect(parsePromptFile(text)[0]!.content).not.toContain('APO apply-edit');
    expect(() => parsePromptFile('just text', 'x.md')).toThrow(ValidationError);
    expect(() => parsePromptFile('just text', 'x.md')).toThrow(/x\.md: no role marker/);
  });

  it('fills placeholders in one pass, leaving inserted braces and unknown names alone', () => {
    expect(
      fillPlaceholders('A {prompt_template} B {other} {critique}', {
        prompt_template: 'room {date} {critique}',
        critique: 'c',
      }),
    ).toBe('A room {date} {critique} B {other} c');
  });

  it('unwraps a reply that is one code fence', () => {
    expect(unwrapCodeFence('```text\nFind {x}\nRules\n```')).toBe('Find {x}\nRules');
    expect(unwrapCodeFence('Find {x} ```a```')).toBe('Find {x} ```a```');
  });
});

describe('experiments text', () => {
  it('renders status, reward and each call’s messages as JSON, readable by the simulated critic', () => {
    const text = renderExperiments([
      {
        rollout_id: 'ro-1',
        status: 'succeeded',
        final_reward: 0,
        spans: [],
        messages: [
          {
            messages: [
              {
                role: 'user',
                content:
                  'Find a room on 2025-10-13 at 10:00 for 30 minutes, 6 attendees. Needs: tv. Accessible required: no',
              },
              {
                role: 'tool',
                tool_call_id: 'c1',
                content: JSON.stringify({
                  rooms: [
                    {
                      id: 'Small',
                      capacity: 4,
                      equipment: ['tv'],
                      accessible: true,
                      distance_m: 1,
                      booked: [],
                    },
                  ],
                }),
              },
              { role: 'assistant', content: 'final_choice: Small' },
            ],
            tools: null,
          },
        ],
      },
      { rollout_id: 'ro-2', status: 'failed', final_reward: null, spans: [], messages: [] },
    ]);
    expect(text).toMatch(
      /^<experiment index="1" status="succeeded" final_reward="0">\n\[\n\{"messages":/,
    );
    expect(text).toContain(
      '<experiment index="2" status="failed" final_reward="none">\n[]\n</experiment>',
    );
    const critique = critiqueExperiments('Find a room', text);
    expect(critique).toContain('2 of 2 runs failed');
    expect(critique).toContain(
      'Only choose a room whose capacity is at least the number of attendees.',
    );
    expect(applyCritique('Find a room {date}', critique)).toBe(
      'Find a room {date}\n\nRules:\n- Only choose a room whose capacity is at least the number of attendees.',
    );
  });
});

describe('seeded randomness and batches', () => {
  it('repeats its choices for a seed', () => {
    const a = new SeededRandom(42);
    const b = new SeededRandom(42);
    const items = [1, 2, 3, 4, 5, 6, 7, 8];
    expect([a.shuffle(items), a.sample(items, 3), a.choice(items)]).toEqual([
      b.shuffle(items),
      b.sample(items, 3),
      b.choice(items),
    ]);
    expect(new SeededRandom(1).shuffle(items)).not.toEqual(new SeededRandom(2).shuffle(items));
    expect(() => new SeededRandom(1).sample(items, 9)).toThrow(ValidationError);
    expect(() => new SeededRandom(1.5)).toThrow(/seed: expected an integer/);
  });

  it('yields batches of distinct items, each item once per pass', () => {
    const data = ['a', 'b', 'c', 'd', 'e'];
    const batches = batchIterOverDataset(data, 2, new SeededRandom(7));
    const seen: string[] = [];
    for (let i = 0; i < 5; i++) {
      const batch = batches.next().value as string[];
      expect(batch).toHaveLength(2);
      expect(new Set(batch).size).toBe(2);
      seen.push(...batch);
    }
    // Two passes over five items: every item twice.
    expect(seen.sort()).toEqual(['a', 'a', 'b', 'b', 'c', 'c', 'd', 'd', 'e', 'e']);
    const whole = batchIterOverDataset(data, 10, new SeededRandom(7)).next().value as string[];
    expect([...whole].sort()).toEqual(data);
  });
});

describe('APO options and requirements', () => {
  const store = new InMemoryLightningStore();
  const prompt = new PromptTemplate({ template: 'Q: {q}', engine: 'f-string' });
  const ctx = (overrides: Record<string, unknown>) => ({
    store,
    trainDataset: [{ q: 1 }],
    valDataset: [{ q: 2 }],
    initialResources: { prompt },
    signal: new AbortController().signal,
    ...overrides,
  });

  it('validates numeric options, naming the option', () => {
    expect(() => new APO({ beamWidth: 0 })).toThrow(/beamWidth: expected a positive integer/);
    expect(() => new APO({ diversityTemperature: -1 })).toThrow(/diversityTemperature/);
    expect(() => new APO({ gradientPromptFiles: [] })).toThrow(/gradientPromptFiles/);
  });

  it('needs a seed prompt template, both datasets and a TraceToMessages adapter', async () => {
    const apo = new APO({ client: {} as never, logger: null });
    await expect(apo.run(ctx({ initialResources: undefined }))).rejects.toThrow(/initialResources/);
    await expect(
      apo.run(ctx({ initialResources: { llm: new LLM({ endpoint: 'http://x', model: 'm' }) } })),
    ).rejects.toThrow(/no PromptTemplate resource/);
    await expect(apo.run(ctx({ trainDataset: [] }))).rejects.toThrow(/trainDataset/);
    await expect(apo.run(ctx({ valDataset: undefined }))).rejects.toThrow(/valDataset/);
    await expect(apo.run(ctx({ adapter: new TracerTraceToTriplet() }))).rejects.toThrow(
      /TraceToMessages/,
    );
    const named = new APO({ resourceName: 'other', logger: null });
    await expect(named.run(ctx({}))).rejects.toThrow(/initialResources\.other/);
    expect(() => apo.getBestPrompt()).toThrow(/no best prompt yet/);
  });
});
