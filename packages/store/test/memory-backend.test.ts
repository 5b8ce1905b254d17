import {
  type Attempt,
  NotFoundError,
  type ResourcesUpdate,
  type Rollout,
  type RolloutStatus,
  type Span,
  StoreClosedError,
  StoreError,
  ValidationError,
  type Worker,
} from '@arclight/core';
import { describe, expect, it } from 'vitest';
import type {
  PageQuery,
  ResourcesQuery,
  RolloutQuery,
  SpanQuery,
  WorkerQuery,
} from '../src/backend.js';
import { MemoryBackend } from '../src/memory/index.js';

// ---------------------------------------------------------------- factories

const rollout = (id: string, overrides: Partial<Rollout> = {}): Rollout => ({
  rollout_id: id,
  input: { task: id },
  start_time: 100,
  end_time: null,
  mode: null,
  resources_id: null,
  status: 'queuing',
  config: {
    timeout_seconds: null,
    unresponsive_seconds: null,
    max_attempts: 1,
    retry_condition: [],
  },
  metadata: {},
  ...overrides,
});

const attempt = (
  rolloutId: string,
  id: string,
  seq: number,
  overrides: Partial<Attempt> = {},
): Attempt => ({
  rollout_id: rolloutId,
  attempt_id: id,
  sequence_id: seq,
  start_time: 100 + seq,
  end_time: null,
  status: 'preparing',
  worker_id: null,
  last_heartbeat_time: null,
  metadata: null,
  ...overrides,
});

const span = (
  rolloutId: string,
  attemptId: string,
  spanId: string,
  overrides: Partial<Span> = {},
): Span => ({
  rollout_id: rolloutId,
  attempt_id: attemptId,
  sequence_id: 1,
  trace_id: 't'.repeat(32),
  span_id: spanId,
  parent_id: null,
  name: `name-${spanId}`,
  status: { status_code: 'OK', description: null },
  attributes: { key: 'value' },
  events: [],
  links: [],
  start_time: 1,
  end_time: 2,
  context: null,
  parent: null,
  resource: { attributes: {}, schema_url: '' },
  ...overrides,
});

const worker = (id: string, overrides: Partial<Worker> = {}): Worker => ({
  worker_id: id,
  status: 'unknown',
  heartbeat_stats: null,
  last_heartbeat_time: null,
  last_dequeue_time: null,
  last_busy_time: null,
  last_idle_time: null,
  current_rollout_id: null,
  current_attempt_id: null,
  ...overrides,
});

const resources = (
  id: string,
  updateTime: number,
  overrides: Partial<ResourcesUpdate> = {},
): ResourcesUpdate => ({
  resources_id: id,
  create_time: updateTime,
  update_time: updateTime,
  version: 1,
  resources: {},
  ...overrides,
});

const page = (overrides: Partial<PageQuery> = {}): PageQuery => ({
  sort_by: null,
  sort_order: 'asc',
  limit: -1,
  offset: 0,
  ...overrides,
});

const rolloutQuery = (overrides: Partial<RolloutQuery> = {}): RolloutQuery => ({
  ...page(),
  status_in: null,
  rollout_id_in: null,
  rollout_id_contains: null,
  filter_logic: 'and',
  ...overrides,
});

const spanQuery = (rolloutId: string, overrides: Partial<SpanQuery> = {}): SpanQuery => ({
  ...page(),
  rollout_id: rolloutId,
  attempt_id: null,
  trace_id: null,
  trace_id_contains: null,
  span_id: null,
  span_id_contains: null,
  parent_id: null,
  parent_id_contains: null,
  name: null,
  name_contains: null,
  filter_logic: 'and',
  ...overrides,
});

const workerQuery = (overrides: Partial<WorkerQuery> = {}): WorkerQuery => ({
  ...page(),
  status_in: null,
  worker_id_contains: null,
  filter_logic: 'and',
  ...overrides,
});

const resourcesQuery = (overrides: Partial<ResourcesQuery> = {}): ResourcesQuery => ({
  ...page(),
  resources_id: null,
  resources_id_contains: null,
  ...overrides,
});

const ids = (items: Rollout[]): string[] => items.map((r) => r.rollout_id);

class Boom extends Error {}

/** Runs `fn` in a transaction that then throws; asserts the error propagates unchanged. */
function rollBack(backend: MemoryBackend, fn: () => void): void {
  const error = new Boom('rollback');
  expect(() =>
    backend.transaction(() => {
      fn();
      throw error;
    }),
  ).toThrow(error);
}

// ---------------------------------------------------------------- transactions

describe('MemoryBackend transactions', () => {
  it('keeps every write when the callback returns, and returns its value', () => {
    const backend = new MemoryBackend();
    const result = backend.transaction(() => {
      backend.insertRollout(rollout('r1'));
      backend.pushQueue(['r1']);
      return 42;
    });
    expect(result).toBe(42);
    expect(backend.getRollout('r1')?.rollout_id).toBe('r1');
    expect(backend.queueSize()).toBe(1);
  });

  it('undoes rollout inserts and puts, including the status index', () => {
    const backend = new MemoryBackend();
    backend.insertRollout(rollout('r1', { status: 'queuing' }));
    rollBack(backend, () => {
      backend.insertRollout(rollout('r2', { status: 'running' }));
      backend.putRollout(rollout('r1', { status: 'running', metadata: { changed: true } }));
      backend.putRollout(rollout('r1', { status: 'succeeded' }));
      expect(ids(backend.rolloutsWithStatus(['running', 'succeeded']))).toEqual(['r1', 'r2']);
    });
    expect(backend.getRollout('r2')).toBeUndefined();
    expect(backend.getRollout('r1')).toMatchObject({ status: 'queuing', metadata: {} });
    expect(ids(backend.rolloutsWithStatus(['running', 'succeeded']))).toEqual([]);
    expect(ids(backend.rolloutsWithStatus(['queuing']))).toEqual(['r1']);
    expect(backend.queryRollouts(rolloutQuery()).total).toBe(1);
    expect(backend.counts().rollouts).toBe(1);
    // The id rolled back is free again.
    backend.insertRollout(rollout('r2'));
    expect(ids(backend.queryRollouts(rolloutQuery()).items)).toEqual(['r1', 'r2']);
  });

  it('undoes attempt inserts and puts, restoring the latest attempt', () => {
    const backend = new MemoryBackend();
    backend.insertAttempt(attempt('r1', 'a1', 1));
    rollBack(backend, () => {
      backend.insertAttempt(attempt('r1', 'a2', 2));
      backend.insertAttempt(attempt('r9', 'a1', 1));
      backend.putAttempt(attempt('r1', 'a1', 1, { status: 'failed' }));
      expect(backend.getLatestAttempt('r1')?.attempt_id).toBe('a2');
    });
    expect(backend.getLatestAttempt('r1')).toMatchObject({ attempt_id: 'a1', status: 'preparing' });
    expect(backend.countAttempts('r1')).toBe(1);
    expect(backend.getLatestAttempt('r9')).toBeUndefined();
    expect(backend.countAttempts('r9')).toBe(0);
    expect(backend.counts().attempts).toBe(1);
  });

  it('undoes span inserts, counts and bytes', () => {
    const backend = new MemoryBackend();
    backend.insertSpans([span('r1', 'a1', 's1')]);
    const before = backend.counts();
    rollBack(backend, () => {
      expect(
        backend.insertSpans([
          span('r1', 'a1', 's2'),
          span('r1', 'a2', 's1'),
          span('r2', 'a1', 's1'),
        ]),
      ).toEqual([true, true, true]);
    });
    expect(backend.counts()).toEqual(before);
    expect(backend.querySpans(spanQuery('r1')).items.map((s) => s.span_id)).toEqual(['s1']);
    expect(backend.querySpans(spanQuery('r2')).total).toBe(0);
    // The rolled-back key can be inserted again.
    expect(backend.insertSpans([span('r1', 'a1', 's2')])).toEqual([true]);
  });

  it('undoes queue pushes and pops in order', () => {
    const backend = new MemoryBackend();
    backend.pushQueue(['a', 'b', 'c']);
    rollBack(backend, () => {
      expect(backend.popQueue()).toBe('a');
      expect(backend.popQueue()).toBe('b');
      backend.pushQueue(['d', 'a']);
      expect(backend.popQueue()).toBe('c');
      expect(backend.queueHas('d')).toBe(true);
    });
    expect(backend.queueSize()).toBe(3);
    expect(backend.queueHas('d')).toBe(false);
    expect([
      backend.popQueue(),
      backend.popQueue(),
      backend.popQueue(),
      backend.popQueue(),
    ]).toEqual(['a', 'b', 'c', undefined]);
  });

  it('undoes sequence id allocation and raising', () => {
    const backend = new MemoryBackend();
    expect(backend.allocateSequenceIds('r1', 2)).toBe(1);
    rollBack(backend, () => {
      expect(backend.allocateSequenceIds('r1', 3)).toBe(3);
      backend.raiseSequenceId('r1', 50);
      expect(backend.allocateSequenceIds('r2', 1)).toBe(1);
      backend.raiseSequenceId('r3', 7);
    });
    expect(backend.allocateSequenceIds('r1', 1)).toBe(3);
    expect(backend.allocateSequenceIds('r2', 1)).toBe(1);
    expect(backend.allocateSequenceIds('r3', 1)).toBe(1);
  });

  it('undoes resources and worker puts, restoring the latest resources', () => {
    const backend = new MemoryBackend();
    backend.putResources(resources('rs-1', 10));
    backend.putWorker(worker('w1', { status: 'idle' }));
    rollBack(backend, () => {
      backend.putResources(resources('rs-2', 20));
      backend.putResources(resources('rs-1', 30, { version: 2 }));
      backend.putWorker(worker('w1', { status: 'busy' }));
      backend.putWorker(worker('w2'));
      expect(backend.getLatestResources()?.version).toBe(2);
    });
    expect(backend.getLatestResources()).toMatchObject({ resources_id: 'rs-1', version: 1 });
    expect(backend.getResources('rs-2')).toBeUndefined();
    expect(backend.getWorker('w1')?.status).toBe('idle');
    expect(backend.getWorker('w2')).toBeUndefined();
    expect(backend.counts()).toMatchObject({ resources: 1, workers: 1 });
  });

  it('nested transactions join the outer one and roll back only their own writes when they throw', () => {
    const backend = new MemoryBackend();
    backend.transaction(() => {
      backend.insertRollout(rollout('outer'));
      expect(() =>
        backend.transaction(() => {
          backend.insertRollout(rollout('inner'));
          backend.pushQueue(['inner']);
          throw new Boom('inner');
        }),
      ).toThrow(Boom);
      expect(backend.getRollout('inner')).toBeUndefined();
      expect(backend.queueSize()).toBe(0);
      backend.transaction(() => backend.insertRollout(rollout('inner2')));
    });
    expect(ids(backend.queryRollouts(rolloutQuery()).items)).toEqual(['outer', 'inner2']);

    rollBack(backend, () => {
      backend.transaction(() => backend.insertRollout(rollout('committed-inner')));
    });
    expect(backend.getRollout('committed-inner')).toBeUndefined();
  });

  it('rejects a callback that returns a promise and undoes its synchronous writes', () => {
    const backend = new MemoryBackend();
    expect(() =>
      backend.transaction(() => {
        backend.insertRollout(rollout('r1'));
        return Promise.resolve(1);
      }),
    ).toThrow(StoreError);
    expect(backend.getRollout('r1')).toBeUndefined();
  });

  it('leaves the store unchanged when a single call fails outside a transaction', () => {
    const backend = new MemoryBackend();
    backend.insertRollout(rollout('r1'));
    backend.insertAttempt(attempt('r1', 'a1', 1));
    expect(() => backend.insertRollout(rollout('r1', { status: 'running' }))).toThrow(/r1/);
    expect(() => backend.putRollout(rollout('nope'))).toThrow(NotFoundError);
    expect(() => backend.insertAttempt(attempt('r1', 'a1', 5))).toThrow(/a1/);
    expect(() => backend.putAttempt(attempt('r1', 'a9', 1))).toThrow(NotFoundError);
    expect(() =>
      backend.insertSpans([span('r1', 'a1', 's1'), span('r1', 'a1', 's2')]),
    ).not.toThrow();
    expect(backend.getRollout('r1')?.status).toBe('queuing');
    expect(backend.getLatestAttempt('r1')?.sequence_id).toBe(1);
    expect(backend.counts()).toMatchObject({ rollouts: 1, attempts: 1, spans: 2 });
  });

  it('keeps insertSpans atomic when the size estimator throws midway', () => {
    let calls = 0;
    const backend = new MemoryBackend({
      spanSizeEstimator: () => {
        calls++;
        if (calls === 2) throw new Boom('estimator');
        return 10;
      },
    });
    expect(() => backend.insertSpans([span('r1', 'a1', 's1'), span('r1', 'a1', 's2')])).toThrow(
      Boom,
    );
    expect(backend.counts()).toMatchObject({ spans: 0, span_bytes: 0 });
  });
});

// ---------------------------------------------------------------- records

describe('MemoryBackend records', () => {
  it('returns copies: mutating a returned record or a passed-in one does not change the store', () => {
    const backend = new MemoryBackend();
    const input = rollout('r1', { metadata: { nested: { n: 1 } } });
    backend.insertRollout(input);
    input.status = 'failed';
    input.config.retry_condition.push('failed');
    (input.metadata!.nested as { n: number }).n = 2;

    const got = backend.getRollout('r1')!;
    got.status = 'running';
    got.config.max_attempts = 9;
    got.config.retry_condition.push('timeout');
    (got.metadata!.nested as { n: number }).n = 3;
    expect(backend.getRollout('r1')).toMatchObject({
      status: 'queuing',
      config: { max_attempts: 1, retry_condition: [] },
      metadata: { nested: { n: 1 } },
    });
    const queried = backend.queryRollouts(rolloutQuery()).items[0]!;
    queried.status = 'cancelled';
    expect(backend.rolloutsWithStatus(['queuing']).map((r) => r.status)).toEqual(['queuing']);

    backend.putWorker(worker('w1', { heartbeat_stats: { cpu: 1 } }));
    const w = backend.getWorker('w1')!;
    w.heartbeat_stats!.cpu = 2;
    w.status = 'busy';
    expect(backend.getWorker('w1')).toMatchObject({
      status: 'unknown',
      heartbeat_stats: { cpu: 1 },
    });

    backend.insertAttempt(attempt('r1', 'a1', 1, { metadata: { k: 'v' } }));
    const a = backend.getLatestAttempt('r1')!;
    a.metadata!.k = 'changed';
    a.status = 'failed';
    expect(backend.getAttempt('r1', 'a1')).toMatchObject({
      status: 'preparing',
      metadata: { k: 'v' },
    });

    backend.insertSpans([span('r1', 'a1', 's1')]);
    const s = backend.querySpans(spanQuery('r1')).items[0]!;
    s.name = 'renamed';
    expect(backend.querySpans(spanQuery('r1')).items[0]!.name).toBe('name-s1');
  });

  it('tracks the latest attempt by highest sequence_id', () => {
    const backend = new MemoryBackend();
    backend.insertAttempt(attempt('r1', 'a2', 2));
    backend.insertAttempt(attempt('r1', 'a1', 1));
    backend.insertAttempt(attempt('r2', 'b1', 1));
    expect(backend.getLatestAttempt('r1')?.attempt_id).toBe('a2');
    backend.insertAttempt(attempt('r1', 'a3', 3));
    expect(backend.getLatestAttempt('r1')?.attempt_id).toBe('a3');
    backend.putAttempt(attempt('r1', 'a3', 0));
    expect(backend.getLatestAttempt('r1')?.attempt_id).toBe('a2');
    backend.putAttempt(attempt('r1', 'a1', 7));
    expect(backend.getLatestAttempt('r1')?.attempt_id).toBe('a1');
    expect(backend.countAttempts('r1')).toBe(3);

    const latest = backend.latestAttempts(['r1', 'r2', 'missing', 'r1']);
    expect([...latest.keys()]).toEqual(['r1', 'r2']);
    expect(latest.get('r2')?.attempt_id).toBe('b1');
    expect(backend.getLatestAttempt('missing')).toBeUndefined();
  });

  it('tracks the latest resources: greatest update_time, ties to the last written', () => {
    const backend = new MemoryBackend();
    expect(backend.getLatestResources()).toBeUndefined();
    backend.putResources(resources('a', 10));
    backend.putResources(resources('b', 5));
    expect(backend.getLatestResources()?.resources_id).toBe('a');
    backend.putResources(resources('c', 10));
    expect(backend.getLatestResources()?.resources_id).toBe('c');
    backend.putResources(resources('a', 10, { version: 2 }));
    expect(backend.getLatestResources()).toMatchObject({ resources_id: 'a', version: 2 });
    // Rewriting the latest with an older time hands "latest" to the best remaining one.
    backend.putResources(resources('a', 1, { version: 3 }));
    expect(backend.getLatestResources()?.resources_id).toBe('c');
    expect(backend.getResources('a')?.version).toBe(3);
    expect(backend.counts().resources).toBe(3);
  });

  it('allocates sequence ids from 1, consecutively per rollout, and honours raised ids', () => {
    const backend = new MemoryBackend();
    expect(backend.allocateSequenceIds('r1', 1)).toBe(1);
    expect(backend.allocateSequenceIds('r1', 3)).toBe(2);
    expect(backend.allocateSequenceIds('r1', 1)).toBe(5);
    expect(backend.allocateSequenceIds('r2', 1)).toBe(1);
    backend.raiseSequenceId('r1', 10);
    expect(backend.allocateSequenceIds('r1', 1)).toBe(11);
    backend.raiseSequenceId('r1', 3);
    expect(backend.allocateSequenceIds('r1', 1)).toBe(12);
    backend.raiseSequenceId('r3', -4);
    expect(backend.allocateSequenceIds('r3', 1)).toBe(1);
    expect(() => backend.allocateSequenceIds('r1', -1)).toThrow(ValidationError);
    expect(() => backend.allocateSequenceIds('r1', 1.5)).toThrow(/count/);
    expect(() => backend.raiseSequenceId('r1', Number.NaN)).toThrow(ValidationError);
  });

  it('flags duplicate span keys, also within one batch, and estimates span bytes', () => {
    const backend = new MemoryBackend();
    expect(
      backend.insertSpans([
        span('r1', 'a1', 's1'),
        span('r1', 'a1', 's1', { name: 'dup' }),
        span('r1', 'a2', 's1'),
        span('r2', 'a1', 's1'),
      ]),
    ).toEqual([true, false, true, true]);
    expect(backend.insertSpans([span('r1', 'a1', 's1')])).toEqual([false]);
    expect(
      backend.querySpans(spanQuery('r1', { attempt_id: 'a1' })).items.map((s) => s.name),
    ).toEqual(['name-s1']);
    const { spans, span_bytes } = backend.counts();
    expect(spans).toBe(3);
    expect(span_bytes).toBeGreaterThan(0);
    backend.insertSpans([span('r3', 'a1', 's1', { attributes: { big: 'x'.repeat(10_000) } })]);
    expect(backend.counts().span_bytes).toBeGreaterThan(span_bytes + 10_000);
  });

  it('throws StoreClosedError after close', () => {
    const backend = new MemoryBackend();
    backend.insertRollout(rollout('r1'));
    backend.close();
    backend.close();
    expect(() => backend.getRollout('r1')).toThrow(StoreClosedError);
    expect(() => backend.transaction(() => 1)).toThrow(StoreClosedError);
  });
});

// ---------------------------------------------------------------- sorting

describe('MemoryBackend sorting', () => {
  it('keeps insertion order without sort_by, also after puts', () => {
    const backend = new MemoryBackend();
    for (const id of ['c', 'a', 'b']) backend.insertRollout(rollout(id));
    backend.putRollout(rollout('c', { status: 'running' }));
    expect(ids(backend.queryRollouts(rolloutQuery()).items)).toEqual(['c', 'a', 'b']);
  });

  it('sorts null *_time values as +infinity (last ascending, first descending)', () => {
    const backend = new MemoryBackend();
    backend.insertRollout(rollout('open1', { end_time: null }));
    backend.insertRollout(rollout('late', { end_time: 30 }));
    backend.insertRollout(rollout('open2', { end_time: null }));
    backend.insertRollout(rollout('early', { end_time: 10 }));
    const asc = backend.queryRollouts(rolloutQuery({ sort_by: 'end_time' }));
    expect(ids(asc.items)).toEqual(['early', 'late', 'open1', 'open2']);
    const desc = backend.queryRollouts(rolloutQuery({ sort_by: 'end_time', sort_order: 'desc' }));
    expect(ids(desc.items)).toEqual(['open1', 'open2', 'late', 'early']);
  });

  it('sorts other null values as the empty string and keeps ties in insertion order both ways', () => {
    const backend = new MemoryBackend();
    backend.insertRollout(rollout('r1', { resources_id: 'rs-b' }));
    backend.insertRollout(rollout('r2', { resources_id: null }));
    backend.insertRollout(rollout('r3', { resources_id: 'rs-a' }));
    backend.insertRollout(rollout('r4', { resources_id: '' }));
    backend.insertRollout(rollout('r5', { resources_id: 'rs-a' }));
    const asc = backend.queryRollouts(rolloutQuery({ sort_by: 'resources_id' }));
    expect(ids(asc.items)).toEqual(['r2', 'r4', 'r3', 'r5', 'r1']);
    const desc = backend.queryRollouts(
      rolloutQuery({ sort_by: 'resources_id', sort_order: 'desc' }),
    );
    expect(ids(desc.items)).toEqual(['r1', 'r3', 'r5', 'r2', 'r4']);
  });

  it('compares strings by code point, like Python', () => {
    const backend = new MemoryBackend();
    // UTF-16 order would put the astral character (a surrogate pair) before U+FFFD.
    for (const id of ['\u{1F600}', '\uFFFD', 'b', 'B', 'a', 'ab', ''])
      backend.insertRollout(rollout(id));
    const sorted = ids(backend.queryRollouts(rolloutQuery({ sort_by: 'rollout_id' })).items);
    expect(sorted).toEqual(['', 'B', 'a', 'ab', 'b', '\uFFFD', '\u{1F600}']);
  });

  it('sorts numbers numerically and pages after sorting', () => {
    const backend = new MemoryBackend();
    for (const seq of [10, 2, 33, 1]) backend.insertAttempt(attempt('r1', `a${seq}`, seq));
    const all = backend.queryAttempts('r1', page({ sort_by: 'sequence_id' }));
    expect(all.items.map((a) => a.sequence_id)).toEqual([1, 2, 10, 33]);
    const window = backend.queryAttempts(
      'r1',
      page({ sort_by: 'sequence_id', sort_order: 'desc', limit: 2, offset: 1 }),
    );
    expect(window).toMatchObject({ total: 4 });
    expect(window.items.map((a) => a.sequence_id)).toEqual([10, 2]);
    expect(backend.queryAttempts('missing', page()).total).toBe(0);
  });

  it('sorts workers by nullable times and spans by sequence_id', () => {
    const backend = new MemoryBackend();
    backend.putWorker(worker('w1', { last_heartbeat_time: 5 }));
    backend.putWorker(worker('w2'));
    backend.putWorker(worker('w3', { last_heartbeat_time: 1 }));
    const workers = backend.queryWorkers(workerQuery({ sort_by: 'last_heartbeat_time' }));
    expect(workers.items.map((w) => w.worker_id)).toEqual(['w3', 'w1', 'w2']);

    backend.insertSpans([
      span('r1', 'a1', 's1', { sequence_id: 3 }),
      span('r1', 'a1', 's2', { sequence_id: 1 }),
      span('r1', 'a2', 's3', { sequence_id: 2 }),
      span('r1', 'a1', 's4', { sequence_id: 1 }),
    ]);
    const spans = backend.querySpans(spanQuery('r1', { sort_by: 'sequence_id' }));
    expect(spans.items.map((s) => s.span_id)).toEqual(['s2', 's4', 's3', 's1']);
  });
});

// ---------------------------------------------------------------- filtering and pagination

describe('MemoryBackend filtering and pagination', () => {
  const seeded = (): MemoryBackend => {
    const backend = new MemoryBackend();
    const statuses: RolloutStatus[] = ['queuing', 'running', 'succeeded', 'running', 'failed'];
    for (const [i, status] of statuses.entries()) {
      backend.insertRollout(rollout(`ro-${i}${i % 2 ? 'x' : 'y'}`, { status }));
    }
    return backend;
  };

  it('matches everything without conditions, with either logic', () => {
    const backend = seeded();
    expect(backend.queryRollouts(rolloutQuery()).total).toBe(5);
    expect(backend.queryRollouts(rolloutQuery({ filter_logic: 'or' })).total).toBe(5);
  });

  it('combines rollout conditions with and / or', () => {
    const backend = seeded();
    const and = backend.queryRollouts(
      rolloutQuery({ status_in: ['running', 'failed'], rollout_id_contains: 'x' }),
    );
    expect(ids(and.items)).toEqual(['ro-1x', 'ro-3x']);
    const or = backend.queryRollouts(
      rolloutQuery({ status_in: ['failed'], rollout_id_contains: 'x', filter_logic: 'or' }),
    );
    expect(ids(or.items)).toEqual(['ro-1x', 'ro-3x', 'ro-4y']);
    const inList = backend.queryRollouts(
      rolloutQuery({
        rollout_id_in: ['ro-4y', 'ro-0y', 'nope', 'ro-4y'],
        status_in: ['failed', 'queuing'],
      }),
    );
    expect(ids(inList.items)).toEqual(['ro-0y', 'ro-4y']);
    const inOr = backend.queryRollouts(
      rolloutQuery({ rollout_id_in: ['ro-2y'], status_in: ['failed'], filter_logic: 'or' }),
    );
    expect(ids(inOr.items)).toEqual(['ro-2y', 'ro-4y']);
  });

  it('treats an empty _in list as matching nothing', () => {
    const backend = seeded();
    expect(backend.queryRollouts(rolloutQuery({ status_in: [] })).total).toBe(0);
    expect(backend.queryRollouts(rolloutQuery({ rollout_id_in: [] })).total).toBe(0);
    const or = backend.queryRollouts(
      rolloutQuery({ status_in: [], rollout_id_contains: '4', filter_logic: 'or' }),
    );
    expect(ids(or.items)).toEqual(['ro-4y']);
    expect(backend.queryWorkers(workerQuery({ status_in: [] })).total).toBe(0);
  });

  it('returns rollouts with given statuses in insertion order', () => {
    const backend = seeded();
    expect(ids(backend.rolloutsWithStatus(['failed', 'running']))).toEqual([
      'ro-1x',
      'ro-3x',
      'ro-4y',
    ]);
    expect(backend.rolloutsWithStatus([])).toEqual([]);
  });

  it('always ANDs the span rollout_id and attempt_id, whatever filter_logic says', () => {
    const backend = new MemoryBackend();
    backend.insertSpans([
      span('r1', 'a1', 's1', { name: 'llm', parent_id: null }),
      span('r1', 'a1', 's2', { name: 'tool', parent_id: 's1' }),
      span('r1', 'a2', 's3', { name: 'llm', parent_id: null }),
      span('r2', 'a1', 's4', { name: 'llm', parent_id: null }),
    ]);
    const names = (q: SpanQuery): string[] => backend.querySpans(q).items.map((s) => s.span_id);
    expect(names(spanQuery('r1'))).toEqual(['s1', 's2', 's3']);
    expect(names(spanQuery('r1', { name: 'llm', filter_logic: 'or' }))).toEqual(['s1', 's3']);
    expect(
      names(
        spanQuery('r1', { attempt_id: 'a1', name: 'llm', parent_id: 's1', filter_logic: 'or' }),
      ),
    ).toEqual(['s1', 's2']);
    expect(names(spanQuery('r1', { attempt_id: 'a1', name: 'llm', parent_id: 's1' }))).toEqual([]);
    expect(names(spanQuery('r1', { parent_id_contains: '', filter_logic: 'and' }))).toEqual(['s2']);
    expect(
      names(spanQuery('r1', { span_id_contains: '3', name_contains: 'oo', filter_logic: 'or' })),
    ).toEqual(['s2', 's3']);
    expect(names(spanQuery('r1', { attempt_id: 'zz' }))).toEqual([]);
    expect(names(spanQuery('nope'))).toEqual([]);
  });

  it('filters workers with and / or', () => {
    const backend = new MemoryBackend();
    backend.putWorker(worker('Worker-1', { status: 'idle' }));
    backend.putWorker(worker('Worker-2', { status: 'busy' }));
    backend.putWorker(worker('other', { status: 'busy' }));
    const got = (q: WorkerQuery): string[] => backend.queryWorkers(q).items.map((w) => w.worker_id);
    expect(got(workerQuery({ status_in: ['busy'], worker_id_contains: 'Worker' }))).toEqual([
      'Worker-2',
    ]);
    expect(
      got(workerQuery({ status_in: ['idle'], worker_id_contains: 'other', filter_logic: 'or' })),
    ).toEqual(['Worker-1', 'other']);
  });

  it('combines resources conditions with AND', () => {
    const backend = new MemoryBackend();
    for (const id of ['default', 'v0', 'v1']) backend.putResources(resources(id, 1));
    const got = (q: ResourcesQuery): string[] =>
      backend.queryResources(q).items.map((u) => u.resources_id);
    expect(got(resourcesQuery({ resources_id_contains: 'v' }))).toEqual(['v0', 'v1']);
    expect(got(resourcesQuery({ resources_id: 'v0', resources_id_contains: 'v' }))).toEqual(['v0']);
    expect(got(resourcesQuery({ resources_id: 'default', resources_id_contains: 'v' }))).toEqual(
      [],
    );
    expect(got(resourcesQuery({ sort_by: 'resources_id', sort_order: 'desc' }))).toEqual([
      'v1',
      'v0',
      'default',
    ]);
  });

  it('pages with total counting every match', () => {
    const backend = new MemoryBackend();
    for (let i = 0; i < 10; i++)
      backend.insertRollout(rollout(`r${i}`, { status: i % 2 ? 'running' : 'queuing' }));
    const q = (o: Partial<RolloutQuery>) =>
      backend.queryRollouts(rolloutQuery({ status_in: ['queuing'], ...o }));
    expect(q({ limit: 2 })).toMatchObject({ total: 5 });
    expect(ids(q({ limit: 2 }).items)).toEqual(['r0', 'r2']);
    expect(ids(q({ limit: 2, offset: 3 }).items)).toEqual(['r6', 'r8']);
    expect(ids(q({ limit: -1, offset: 4 }).items)).toEqual(['r8']);
    expect(q({ limit: 3, offset: 10 })).toEqual({ items: [], total: 5 });
    const sorted = q({ sort_by: 'rollout_id', sort_order: 'desc', limit: 2, offset: 1 });
    expect(sorted.total).toBe(5);
    expect(ids(sorted.items)).toEqual(['r6', 'r4']);
  });
});

// ---------------------------------------------------------------- queue

describe('MemoryBackend queue', () => {
  it('is FIFO across 100k items with interleaved pushes and pops', () => {
    const backend = new MemoryBackend();
    const n = 100_000;
    const batch: string[] = [];
    for (let i = 0; i < n; i++) batch.push(`r${i}`);
    backend.pushQueue(batch.slice(0, n / 2));
    let expected = 0;
    let mismatches = 0;
    // Pop two for every one pushed, so the head passes the compaction points while the tail grows.
    for (let i = n / 2; i < n; i++) {
      backend.pushQueue([batch[i]!]);
      for (let k = 0; k < 2 && expected < n; k++) {
        if (backend.popQueue() !== `r${expected}`) mismatches++;
        expected++;
      }
    }
    while (backend.queueSize() > 0) {
      if (backend.popQueue() !== `r${expected}`) mismatches++;
      expected++;
    }
    expect(mismatches).toBe(0);
    expect(expected).toBe(n);
    expect(backend.popQueue()).toBeUndefined();
  });

  it('answers queueHas for ids anywhere in the queue, counting duplicates', () => {
    const backend = new MemoryBackend();
    backend.pushQueue(['a', 'b', 'a']);
    expect(backend.queueHas('b')).toBe(true);
    expect(backend.queueHas('z')).toBe(false);
    backend.popQueue();
    expect(backend.queueHas('a')).toBe(true);
    backend.popQueue();
    expect(backend.queueHas('b')).toBe(false);
    backend.popQueue();
    expect(backend.queueHas('a')).toBe(false);
    expect(backend.queueSize()).toBe(0);

    backend.pushQueue(['a']);
    rollBack(backend, () => {
      backend.pushQueue(['a', 'a']);
      backend.popQueue();
    });
    expect(backend.queueHas('a')).toBe(true);
    expect(backend.popQueue()).toBe('a');
    expect(backend.queueHas('a')).toBe(false);
  });

  it('rolls back pops across a compaction of a large queue', () => {
    const backend = new MemoryBackend();
    const all = Array.from({ length: 5000 }, (_, i) => `r${i}`);
    backend.pushQueue(all);
    rollBack(backend, () => {
      for (let i = 0; i < 4000; i++) backend.popQueue();
      backend.pushQueue(['extra']);
    });
    expect(backend.queueSize()).toBe(5000);
    const popped: string[] = [];
    for (let i = 0; i < 5000; i++) popped.push(backend.popQueue()!);
    expect(popped).toEqual(all);
  });
});
