import { LLM, PromptTemplate } from '@arclight/core';
import { InMemoryLightningStore } from '@arclight/store';
import { chooseRoom, ROOM_RULES, rulesStatedIn } from '@arclight/test-fixtures';
import { Trainer } from '@arclight/trainer';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APO, type APOEvent } from '../src/index.js';
import {
  type RoomTask,
  roomAgent,
  roomTasks,
  roomWorld,
  SEED_TEMPLATE,
  TEST_ROOMS,
} from './support/rooms.js';

type World = Awaited<ReturnType<typeof roomWorld>>;

interface Run {
  apo: APO<RoomTask>;
  events: APOEvent[];
  store: InMemoryLightningStore;
}

const tasks = roomTasks(24);
const train = tasks.slice(0, 12);
const val = tasks.slice(12);

/** Validation accuracy of a template for the simulated model, computed directly from the rules it states. */
const expectedScore = (template: string): number =>
  val.filter((t) => chooseRoom(TEST_ROOMS, t.request, rulesStatedIn(template)) === t.expected)
    .length / val.length;

async function runApo(world: World, seed: number): Promise<Run> {
  const events: APOEvent[] = [];
  const apo = new APO<RoomTask>({
    client: new OpenAI({ baseURL: world.llm.baseUrl, apiKey: 'unused', maxRetries: 0 }),
    gradientModel: 'critic-model',
    applyEditModel: 'editor-model',
    beamRounds: 2,
    beamWidth: 2,
    branchFactor: 2,
    gradientBatchSize: 4,
    valBatchSize: 6,
    seed,
    pollInterval: 0.2,
    onProgress: (event) => events.push(event),
    logger: null,
  });
  const store = new InMemoryLightningStore();
  const trainer = new Trainer<RoomTask>({
    nRunners: 3,
    store,
    algorithm: apo,
    initialResources: world.resources,
    tracer: world.tracer,
    runner: { pollInterval: 0.05, intervalJitter: 0 },
    handleSignals: false,
    logger: null,
  });
  await trainer.fit(roomAgent, { trainDataset: train, valDataset: val });
  return { apo, events, store };
}

describe('APO on the simulated room selector (Trainer + in-process runners + fixture LLM)', () => {
  let world: World;
  let run: Run;

  const warnings: Array<string | undefined> = [];
  const onWarning = (w: Error & { code?: string }) => warnings.push(w.code);

  beforeAll(async () => {
    process.on('warning', onWarning);
    world = await roomWorld();
    run = await runApo(world, 3);
  });
  afterAll(async () => {
    await run?.store.close();
    await world?.close();
  });

  it("records nothing for APO's own critic/editor calls through the instrumented SDK (no outside-rollout warning)", async () => {
    // Let process.emitWarning's next-tick delivery run.
    await new Promise((resolve) => setImmediate(resolve));
    process.off('warning', onWarning);
    expect(warnings).not.toContain('ARCLIGHT_SPANS_OUTSIDE_ROLLOUT');
  });

  it('improves the validation reward over the seed prompt', () => {
    const { apo } = run;
    expect(apo.seedScore).toBeCloseTo(expectedScore(SEED_TEMPLATE), 10);
    expect(apo.seedScore!).toBeLessThan(0.5);
    expect(apo.bestScore).toBeGreaterThanOrEqual(apo.seedScore! + 0.3);
    expect(apo.bestVersion).not.toBe('v0');
    const best = apo.getBestPrompt();
    expect(best).toBeInstanceOf(PromptTemplate);
    expect(best.engine).toBe('f-string');
    expect(best.template.startsWith(SEED_TEMPLATE)).toBe(true);
    expect(ROOM_RULES.some((rule) => best.template.includes(rule.statement))).toBe(true);
    // The reported score is the real one: the simulated model's accuracy with the rules the prompt states.
    expect(apo.bestScore).toBeCloseTo(expectedScore(best.template), 10);
  });

  it('reports progress: seed score, rounds, candidates, beams and the best so far', () => {
    const { events, apo } = run;
    const first = events[0];
    expect(first).toMatchObject({
      type: 'evaluation',
      purpose: 'seed',
      version: 'v0',
      tasks: 12,
      finished: 12,
    });
    expect(events.filter((e) => e.type === 'round-start').map((e) => e.round)).toEqual([1, 2]);
    const candidates = events.filter((e) => e.type === 'candidate');
    expect(candidates.map((c) => c.version)).toEqual([
      'v1',
      'v2',
      'v3',
      'v4',
      'v5',
      'v6',
      'v7',
      'v8',
    ]);
    for (const c of candidates) {
      expect(c.critique).toMatch(/simulated critic/);
      expect(c.gradientPrompt).toMatch(/^text-gradient-[123]\.md$/);
      expect(c.editPrompt).toMatch(/^apply-edit-[12]\.md$/);
    }
    const ends = events.filter((e) => e.type === 'round-end');
    expect(ends).toHaveLength(2);
    expect(ends.at(-1)!.best).toEqual({ version: apo.bestVersion, score: apo.bestScore });
    const gradient = events.filter((e) => e.type === 'evaluation' && e.purpose === 'gradient');
    expect(gradient).toHaveLength(8);
    expect(
      gradient.every((e) => e.type === 'evaluation' && e.mode === 'train' && e.tasks === 4),
    ).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: 'done', stopped: false, seed: { version: 'v0' } });
    expect(apo.history.map((r) => r.round)).toEqual([1, 2]);
    expect(apo.history[0]!.candidates).toEqual([
      { version: 'v1', parent: 'v0' },
      { version: 'v2', parent: 'v0' },
      { version: 'v3', parent: 'v0' },
      { version: 'v4', parent: 'v0' },
    ]);
  });

  it('publishes every version as resources with the template in place of the seed, the LLM kept', async () => {
    const { store } = run;
    for (const version of ['v0', 'v1', 'v8']) {
      const update = await store.getResourcesById(version);
      expect(update, version).not.toBeNull();
      expect(update!.resources.prompt).toBeInstanceOf(PromptTemplate);
      expect(update!.resources.main_llm).toBeInstanceOf(LLM);
    }
    expect((await store.getResourcesById('v0'))!.resources.prompt).toMatchObject({
      template: SEED_TEMPLATE,
    });
    const rollouts = (await store.queryRollouts({})).items;
    const finished = run.events.reduce((n, e) => n + (e.type === 'evaluation' ? e.finished : 0), 0);
    expect(rollouts).toHaveLength(finished);
    expect(rollouts.every((r) => r.status === 'succeeded')).toBe(true);
    expect(rollouts.filter((r) => r.mode === 'train')).toHaveLength(8 * 4);
    expect(
      new Set(rollouts.map((r) => (r.metadata as { prompt_version: string }).prompt_version)).has(
        'v0',
      ),
    ).toBe(true);
  });

  it('asks the critic with the parent template and the runs, and the editor with the critique', () => {
    const modelOf = (r: { body: unknown }) => (r.body as { model?: string }).model;
    const critic = world.llm.requests.filter((r) => modelOf(r) === 'critic-model');
    const editor = world.llm.requests.filter((r) => modelOf(r) === 'editor-model');
    expect(critic).toHaveLength(8);
    expect(editor).toHaveLength(8);
    const first = critic[0]!.body as {
      messages: Array<{ role: string; content: string }>;
      temperature: number;
    };
    expect(first.temperature).toBe(1);
    expect(first.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(first.messages[1]!.content).toContain(
      `<prompt_template>\n${SEED_TEMPLATE}\n</prompt_template>`,
    );
    expect(first.messages[1]!.content.match(/<experiment index=/g)).toHaveLength(4);
    const edit = editor[0]!.body as { messages: Array<{ role: string; content: string }> };
    expect(edit.messages[1]!.content).toMatch(/<critique>\nCritique \(simulated critic/);
  });

  it('makes the same choices with the same seed', async () => {
    const again = await runApo(world, 3);
    try {
      expect(again.apo.history).toEqual(run.apo.history);
      expect(again.apo.getBestPrompt().template).toBe(run.apo.getBestPrompt().template);
      expect(again.apo.bestScore).toBe(run.apo.bestScore);
    } finally {
      await again.store.close();
    }
  });
});
