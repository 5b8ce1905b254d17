import { PromptTemplate } from '@arclight/core';
import { emitMessage } from '@arclight/otel';
import { afterEach, describe, expect, it } from 'vitest';
import { type Hook, LitAgent, Runner, rollout } from '../src/index.js';
import {
  attemptsOf,
  eventually,
  FAST,
  MemoryLogger,
  newStore,
  newTracer,
} from './support/harness.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

function setup<T>(
  agent: LitAgent<T>,
  extra: Partial<ConstructorParameters<typeof Runner<T>>[0]> = {},
) {
  const store = newStore();
  const tracer = newTracer(store);
  const logger = new MemoryLogger();
  const runner = new Runner<T>({ agent, store, tracer, logger, ...FAST, ...extra });
  closers.push(async () => {
    await runner.close();
    await tracer.shutdown();
    await store.close();
  });
  return { store, runner, logger, tracer };
}

describe('Runner.iter', () => {
  it('calls hooks in upstream order around the trace context and before the attempt is finished', async () => {
    const events: string[] = [];
    let storeRef: ReturnType<typeof newStore> | null = null;
    const hook: Hook = {
      onRolloutStart: ({ rollout: r }) => void events.push(`rollout-start:${r.input}`),
      onTraceStart: () => void events.push('trace-start'),
      onTraceEnd: () => void events.push('trace-end'),
      onRolloutEnd: async ({ rollout: r, spans }) => {
        const attempt = await storeRef!.getLatestAttempt(r.rollout_id);
        events.push(`rollout-end:${spans.length}:${attempt?.status}`);
      },
    };
    const second: Hook = { onRolloutStart: () => void events.push('second-hook') };
    const agent = rollout<string>(async () => {
      events.push('agent');
      emitMessage('hello');
    });
    const { store, runner } = setup(agent, { hooks: [hook, second], maxRollouts: 1 });
    storeRef = store;
    await store.enqueueRollout({ input: 'a' });
    await runner.iter();
    expect(events).toEqual([
      'rollout-start:a',
      'second-hook',
      'trace-start',
      'agent',
      'trace-end',
      // spans are recorded, the attempt is still open while onRolloutEnd runs
      'rollout-end:1:running',
    ]);
  });

  it('skips onTraceEnd when the agent throws; a throwing hook never fails the rollout', async () => {
    const events: string[] = [];
    const hooks: Hook[] = [
      {
        onRolloutStart: () => {
          throw new Error('hook bug');
        },
        onTraceEnd: () => void events.push('trace-end'),
        onRolloutEnd: ({ spans }) => void events.push(`end:${spans.length}`),
      },
    ];
    let calls = 0;
    const agent = rollout(async () => {
      calls += 1;
      if (calls === 1) throw new Error('boom');
      return 1;
    });
    const { store, runner, logger } = setup(agent, { hooks, maxRollouts: 2 });
    await store.enqueueRollout({ input: 1 });
    await store.enqueueRollout({ input: 2 });
    await runner.iter();
    expect(events).toEqual(['end:0', 'trace-end', 'end:1']);
    expect(logger.lines.some((l) => l.includes('Exception in onRolloutStart hook'))).toBe(true);
    const statuses = (await store.queryRollouts({ sort_by: 'start_time' })).items.map(
      (r) => r.status,
    );
    expect(statuses).toEqual(['failed', 'succeeded']);
  });

  it('an agent exception fails the attempt with {type, message, stack} in its metadata and the runner goes on', async () => {
    class Flaky extends LitAgent<number> {
      override async rollout(task: number) {
        if (task % 2 === 0) throw new TypeError(`even task ${task}`);
        return task;
      }
    }
    const { store, runner } = setup(new Flaky(), { maxRollouts: 4 });
    const ids: string[] = [];
    for (const input of [1, 2, 3, 4]) ids.push((await store.enqueueRollout({ input })).rollout_id);
    expect(await runner.iter()).toBe(4);
    const rollouts = await Promise.all(ids.map((id) => store.getRolloutById(id)));
    expect(rollouts.map((r) => r?.status)).toEqual(['succeeded', 'failed', 'succeeded', 'failed']);
    const [attempt] = await attemptsOf(store, ids[1]!);
    expect(attempt?.status).toBe('failed');
    expect(attempt?.worker_id).toBe('Worker-0');
    expect(attempt?.end_time).not.toBeNull();
    const error = attempt?.metadata?.error as { type: string; message: string; stack: string };
    expect(error.type).toBe('TypeError');
    expect(error.message).toBe('even task 2');
    expect(error.stack).toContain('even task 2');
  });

  it('a non-Error throw is recorded too', async () => {
    const { store, runner } = setup(
      rollout(async () => {
        throw { code: 7 };
      }),
      { maxRollouts: 1 },
    );
    const { rollout_id } = await store.enqueueRollout({ input: null });
    await runner.iter();
    const attempt = await store.getLatestAttempt(rollout_id);
    expect(attempt?.metadata?.error).toEqual({
      type: 'object',
      message: '{"code":7}',
      stack: null,
    });
  });

  it('stops when the signal aborts, also while waiting on an empty queue', async () => {
    const { runner } = setup(
      rollout(async () => 1),
      { pollInterval: 3600 },
    );
    const controller = new AbortController();
    const done = runner.iter({ signal: controller.signal });
    await new Promise((r) => setTimeout(r, 50));
    controller.abort();
    expect(await done).toBe(0);
    // An already aborted signal never dequeues.
    expect(await runner.iter({ signal: AbortSignal.abort() })).toBe(0);
  });

  it('finishes the rollout in progress before stopping', async () => {
    const controller = new AbortController();
    const { store, runner } = setup(
      rollout(async () => {
        controller.abort();
        await new Promise((r) => setTimeout(r, 30));
        return 1;
      }),
    );
    const first = await store.enqueueRollout({ input: 1 });
    const second = await store.enqueueRollout({ input: 2 });
    expect(await runner.iter({ signal: controller.signal })).toBe(1);
    expect((await store.getRolloutById(first.rollout_id))?.status).toBe('succeeded');
    expect((await store.getRolloutById(second.rollout_id))?.status).toBe('queuing');
  });

  it('uses the resources of resources_id, else the latest; an unknown id fails the attempt', async () => {
    const seen: string[] = [];
    const agent = rollout(
      async (_t, { promptTemplate }) => void seen.push(promptTemplate.template),
    );
    const { store, runner } = setup(agent, { maxRollouts: 3 });
    const v1 = await store.addResources({
      p: new PromptTemplate({ template: 'one', engine: 'f-string' }),
    });
    await store.addResources({ p: new PromptTemplate({ template: 'two', engine: 'f-string' }) });
    await store.enqueueRollout({ input: 'pinned', resources_id: v1.resources_id });
    await store.enqueueRollout({ input: 'latest' });
    const bad = await store.enqueueRollout({ input: 'bad', resources_id: 'rs-missing' });
    await runner.iter();
    expect(seen).toEqual(['one', 'two']);
    const attempt = await store.getLatestAttempt(bad.rollout_id);
    expect(attempt?.status).toBe('failed');
    expect(attempt?.metadata?.error).toMatchObject({
      type: 'NotFoundError',
      message: expect.stringContaining('rs-missing'),
    });
  });

  it('runs with empty resources when the store has none', async () => {
    let keys: string[] | null = null;
    const { store, runner } = setup(
      rollout(async (_t, { resources }) => {
        keys = Object.keys(resources);
      }),
      { maxRollouts: 1 },
    );
    await store.enqueueRollout({ input: 0 });
    await runner.iter();
    expect(keys).toEqual([]);
  });

  it('sends worker heartbeats with the system snapshot while iterating', async () => {
    const { store, runner } = setup(
      rollout(async () => 1),
      {
        heartbeatInterval: 0.05,
        workerId: 3,
      },
    );
    const controller = new AbortController();
    const done = runner.iter({ signal: controller.signal });
    const worker = await eventually(async () => {
      const w = await store.getWorkerById('Worker-3');
      return w?.heartbeat_stats ? w : null;
    }, 'a heartbeat');
    const first = worker.last_heartbeat_time!;
    await eventually(
      async () => ((await store.getWorkerById('Worker-3'))?.last_heartbeat_time ?? 0) > first,
      'a second heartbeat',
    );
    controller.abort();
    await done;
    const stats = worker.heartbeat_stats!;
    for (const key of [
      'timestamp',
      'host',
      'os',
      'cpu_name',
      'cpu_cores',
      'cpu_threads',
      'cpu_usage_pct',
      'mem_used_gb',
      'mem_total_gb',
      'mem_pct',
    ]) {
      expect(stats).toHaveProperty(key);
    }
    expect(stats.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
  });

  it('refuses a second concurrent iter()', async () => {
    const { runner } = setup(
      rollout(async () => 1),
      { pollInterval: 3600 },
    );
    const controller = new AbortController();
    const first = runner.iter({ signal: controller.signal });
    await expect(runner.iter()).rejects.toThrow(/already running/);
    controller.abort();
    await first;
  });
});

describe('several runners sharing one store and tracer', () => {
  it('each rollout sees exactly its own spans and no rollout runs twice', async () => {
    const store = newStore();
    const tracer = newTracer(store);
    const mismatches: string[] = [];
    const ran: string[] = [];
    const hook: Hook = {
      onRolloutEnd: ({ rollout: r, spans }) => {
        const bodies = spans.map((s) => s.attributes['agentlightning.message.body']);
        if (
          spans.some((s) => s.rollout_id !== r.rollout_id) ||
          bodies.join() !== `task-${r.input}`
        ) {
          mismatches.push(`${r.input}: ${bodies.join()}`);
        }
      },
    };
    const agent = rollout<number>(async (task, { rollout: r }) => {
      ran.push(r.rollout_id);
      // Rollouts of one wave end together, so their trace contexts close in the same tick.
      await new Promise((resolve) => setTimeout(resolve, task % 3));
      emitMessage(`task-${task}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    });
    const runners = Array.from(
      { length: 8 },
      (_, workerId) =>
        new Runner({ agent, store, tracer, workerId, hooks: hook, logger: null, ...FAST }),
    );
    const ids = (
      await store.enqueueManyRollouts(Array.from({ length: 40 }, (_, input) => ({ input })))
    ).map((r) => r.rollout_id);
    const controller = new AbortController();
    const loops = runners.map((runner) => runner.iter({ signal: controller.signal }));
    const finished = await store.waitForRollouts({ rollout_ids: ids, timeout: 30 });
    controller.abort();
    const counts = await Promise.all(loops);
    await tracer.shutdown();
    expect(finished.map((r) => r.status)).toEqual(ids.map(() => 'succeeded'));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(40);
    expect(new Set(ran).size).toBe(40);
    expect(ran).toHaveLength(40);
    expect(mismatches).toEqual([]);
    await store.close();
  });
});

describe('Runner.step', () => {
  it('runs a task without the queue, with this worker id, and returns the finished rollout', async () => {
    const { store, runner } = setup(
      rollout(async (task: number) => task / 10),
      { workerId: 'w-a' },
    );
    const queued = await store.enqueueRollout({ input: 'untouched' });
    const done = await runner.step(7, {
      resources: { p: new PromptTemplate({ template: 'x', engine: 'f-string' }) },
      mode: 'train',
      metadata: { source: 'step' },
    });
    expect(done.status).toBe('succeeded');
    expect(done.mode).toBe('train');
    expect(done.metadata).toEqual({ source: 'step' });
    expect(done.resources_id).toMatch(/^rs-/);
    const [attempt] = await attemptsOf(store, done.rollout_id);
    expect(attempt?.worker_id).toBe('w-a');
    expect((await store.getRolloutById(queued.rollout_id))?.status).toBe('queuing');
  });

  it('propagates the agent exception after marking the attempt failed', async () => {
    const { store, runner } = setup(
      rollout(async () => {
        throw new RangeError('bad step');
      }),
    );
    await expect(runner.step('x')).rejects.toThrow(RangeError);
    const [failed] = (await store.queryRollouts()).items;
    expect(failed?.status).toBe('failed');
    expect((await store.getLatestAttempt(failed!.rollout_id))?.metadata?.error).toMatchObject({
      type: 'RangeError',
      message: 'bad step',
    });
  });
});

describe('Runner options', () => {
  it('validates options, naming the field', () => {
    const store = newStore();
    const agent = rollout(async () => 1);
    expect(() => new Runner({ agent, store, pollInterval: -1 })).toThrow(/pollInterval/);
    expect(() => new Runner({ agent, store, workerId: 1.5 })).toThrow(/workerId/);
    expect(() => new Runner({ agent, store, maxRollouts: -2 })).toThrow(/maxRollouts/);
  });
});
