import { describe, expect, it } from 'vitest';
import { runFindBestPrompt } from '../src/run.js';
import { CANDIDATE_PROMPTS, TASKS } from '../src/tasks.js';

describe('find-best-prompt example', () => {
  it('tries every candidate on every task and keeps the one with the highest final reward', async () => {
    const lines: string[] = [];
    const summary = await runFindBestPrompt({
      env: {},
      log: (l) => lines.push(l),
      handleSignals: false,
    });
    expect(summary.simulated).toBe(true);
    expect(summary.prompts.map((p) => p.prompt)).toEqual(CANDIDATE_PROMPTS);
    // The simulated judge scores the share of key points an answer covers: all / half / one of four.
    expect(summary.prompts.map((p) => p.rewards)).toEqual([
      [0.5, 0.5, 0.5],
      [1, 1, 1],
      [0.25, 0.25, 0.25],
    ]);
    expect(summary.best.prompt).toBe('You are a knowledgeable AI. {any_question}');
    expect(summary.rollouts).toBe(CANDIDATE_PROMPTS.length * TASKS.length);
    // Each candidate was published as its own resources and read back from the rollouts' LLM spans.
    expect(new Set(summary.prompts.map((p) => p.resources_id)).size).toBe(3);
    expect(lines.filter((l) => l.startsWith('[LLM] '))).toHaveLength(2 * summary.rollouts);
    expect(lines).toContain(
      "[Algo] Best prompt found: 'You are a knowledgeable AI. {any_question}' with reward 1.000",
    );
    expect(lines[0]).toMatch(/SIMULATED/);
  });
});
