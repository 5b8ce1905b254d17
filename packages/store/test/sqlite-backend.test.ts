import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { NotFoundError, StoreClosedError, StoreError, ValidationError } from '@arclight/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RolloutQuery, SpanQuery, WorkerQuery } from '../src/backend.js';
import { SCHEMA_VERSION, SqliteBackend } from '../src/sqlite/index.js';
import { attempt, page, resources, rollout, span, worker } from './fixtures/sqlite-records.js';

const rolloutQuery = (over: Partial<RolloutQuery> = {}): RolloutQuery => ({
  ...page(),
  status_in: null,
  rollout_id_in: null,
  rollout_id_contains: null,
  filter_logic: 'and',
  ...over,
});

const spanQuery = (rollout_id: string, over: Partial<SpanQuery> = {}): SpanQuery => ({
  ...page({ sort_by: 'sequence_id' }),
  rollout_id,
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
  ...over,
});

const workerQuery = (over: Partial<WorkerQuery> = {}): WorkerQuery => ({
  ...page(),
  status_in: null,
  worker_id_contains: null,
  filter_logic: 'and',
  ...over,
});

const ids = (items: { rollout_id: string }[]) => items.map((r) => r.rollout_id);

let backend: SqliteBackend;
beforeEach(() => {
  backend = new SqliteBackend({ path: ':memory:' });
});
afterEach(() => {
  backend.close();
});

describe('SqliteBackend rollouts', () => {
  it('stores, replaces in place and returns copies', () => {
    backend.insertRollout(rollout('ro-1', { input: { nested: [1, { a: 'b' }] } }));
    backend.insertRollout(rollout('ro-2'));
    backend.putRollout(rollout('ro-1', { status: 'running', metadata: { k: 'v' } }));

    const stored = backend.getRollout('ro-1')!;
    expect(stored).toEqual(rollout('ro-1', { status: 'running', metadata: { k: 'v' } }));
    stored.status = 'failed';
    expect(backend.getRollout('ro-1')?.status).toBe('running');
    expect(backend.getRollout('nope')).toBeUndefined();
    // A replaced record keeps its place in insertion order.
    expect(ids(backend.queryRollouts(rolloutQuery()).items)).toEqual(['ro-1', 'ro-2']);
  });

  it('rejects a duplicate insert with an error naming the id', () => {
    backend.insertRollout(rollout('ro-dup'));
    expect(() => backend.insertRollout(rollout('ro-dup'))).toThrow(StoreError);
    expect(() => backend.insertRollout(rollout('ro-dup'))).toThrow(/ro-dup/);
    backend.insertAttempt(attempt('ro-dup', 'at-1', 1));
    expect(() => backend.insertAttempt(attempt('ro-dup', 'at-1', 2))).toThrow(/at-1/);
    expect(backend.getLatestAttempt('ro-dup')?.sequence_id).toBe(1);
  });

  it('refuses to replace a record that does not exist', () => {
    expect(() => backend.putRollout(rollout('ghost'))).toThrow(NotFoundError);
    expect(() => backend.putAttempt(attempt('ghost', 'at-1', 1))).toThrow(
      /putAttempt.*at-1.*ghost/,
    );
    expect(backend.counts()).toMatchObject({ rollouts: 0, attempts: 0 });
  });

  it('filters with and/or logic, empty _in lists and literal substrings', () => {
    backend.insertRollout(rollout('ro-a%1', { status: 'running' }));
    backend.insertRollout(rollout('ro-b_2', { status: 'queuing' }));
    backend.insertRollout(rollout('RO-c3', { status: 'succeeded' }));

    const q = (over: Partial<RolloutQuery>) => ids(backend.queryRollouts(rolloutQuery(over)).items);
    expect(q({})).toEqual(['ro-a%1', 'ro-b_2', 'RO-c3']);
    expect(q({ status_in: ['running', 'succeeded'] })).toEqual(['ro-a%1', 'RO-c3']);
    expect(q({ status_in: [] })).toEqual([]);
    expect(q({ status_in: [], rollout_id_contains: 'c3', filter_logic: 'or' })).toEqual(['RO-c3']);
    expect(q({ rollout_id_contains: '%' })).toEqual(['ro-a%1']);
    expect(q({ rollout_id_contains: '_' })).toEqual(['ro-b_2']);
    expect(q({ rollout_id_contains: 'ro-' })).toEqual(['ro-a%1', 'ro-b_2']);
    expect(q({ rollout_id_in: ['ro-b_2', 'RO-c3'], status_in: ['queuing'] })).toEqual(['ro-b_2']);
    expect(q({ rollout_id_in: ['ro-b_2'], status_in: ['running'], filter_logic: 'or' })).toEqual([
      'ro-a%1',
      'ro-b_2',
    ]);
    expect(q({ rollout_id_in: null, status_in: null, filter_logic: 'or' })).toHaveLength(3);
  });

  it('sorts stably (ties in insertion order, also descending) with null times last ascending', () => {
    backend.insertRollout(rollout('r1', { end_time: 5, mode: 'val' }));
    backend.insertRollout(rollout('r2', { end_time: null, mode: null }));
    backend.insertRollout(rollout('r3', { end_time: 5, mode: 'train' }));
    backend.insertRollout(rollout('r4', { end_time: 1, mode: null }));
    const sorted = (sort_by: string, sort_order: 'asc' | 'desc') =>
      ids(backend.queryRollouts(rolloutQuery({ sort_by, sort_order })).items);

    expect(sorted('end_time', 'asc')).toEqual(['r4', 'r1', 'r3', 'r2']);
    expect(sorted('end_time', 'desc')).toEqual(['r2', 'r1', 'r3', 'r4']);
    expect(sorted('start_time', 'desc')).toEqual(['r1', 'r2', 'r3', 'r4']);
    expect(sorted('mode', 'asc')).toEqual(['r2', 'r4', 'r3', 'r1']);
    expect(sorted('mode', 'desc')).toEqual(['r1', 'r3', 'r2', 'r4']);
    expect(() => sorted('input', 'asc')).toThrow(/sort_by/);
  });

  it('pages with limit and offset and reports the total of all matches', () => {
    for (let i = 0; i < 7; i++) backend.insertRollout(rollout(`r${i}`, { start_time: 10 - i }));
    const get = (limit: number, offset: number) =>
      backend.queryRollouts(rolloutQuery({ sort_by: 'start_time', limit, offset }));
    expect(get(3, 0)).toMatchObject({
      total: 7,
      items: [{ rollout_id: 'r6' }, { rollout_id: 'r5' }, { rollout_id: 'r4' }],
    });
    expect(ids(get(3, 6).items)).toEqual(['r0']);
    expect(get(3, 6).total).toBe(7);
    expect(get(3, 20)).toEqual({ items: [], total: 7 });
    expect(get(-1, 5).total).toBe(7);
    expect(backend.queryRollouts(rolloutQuery({ status_in: ['running'], limit: 2 }))).toEqual({
      items: [],
      total: 0,
    });
  });

  it('lists rollouts by status', () => {
    backend.insertRollout(rollout('a', { status: 'running' }));
    backend.insertRollout(rollout('b', { status: 'succeeded' }));
    backend.insertRollout(rollout('c', { status: 'preparing' }));
    expect(ids(backend.rolloutsWithStatus(['preparing', 'running']))).toEqual(['a', 'c']);
    expect(backend.rolloutsWithStatus([])).toEqual([]);
  });
});

describe('SqliteBackend queue', () => {
  it('is FIFO and knows its members', () => {
    backend.pushQueue(['a', 'b']);
    backend.pushQueue(['c']);
    expect(backend.queueSize()).toBe(3);
    expect(backend.queueHas('b')).toBe(true);
    expect(backend.popQueue()).toBe('a');
    expect(backend.popQueue()).toBe('b');
    expect(backend.queueHas('b')).toBe(false);
    backend.pushQueue(['a']);
    expect([backend.popQueue(), backend.popQueue(), backend.popQueue()]).toEqual([
      'c',
      'a',
      undefined,
    ]);
    expect(backend.queueSize()).toBe(0);
  });
});

describe('SqliteBackend attempts', () => {
  it('finds the latest attempt per rollout and pages attempts', () => {
    backend.insertAttempt(attempt('r1', 'at-1', 1));
    backend.insertAttempt(attempt('r1', 'at-3', 3));
    backend.insertAttempt(attempt('r1', 'at-2', 2));
    backend.insertAttempt(attempt('r2', 'at-1', 1, { status: 'running' }));
    backend.putAttempt(attempt('r1', 'at-3', 3, { status: 'failed', worker_id: 'w' }));

    expect(backend.getLatestAttempt('r1')).toEqual(
      attempt('r1', 'at-3', 3, { status: 'failed', worker_id: 'w' }),
    );
    expect(backend.getAttempt('r2', 'at-1')?.status).toBe('running');
    expect(backend.getAttempt('r2', 'at-9')).toBeUndefined();
    expect(backend.countAttempts('r1')).toBe(3);
    expect(backend.countAttempts('r9')).toBe(0);
    const latest = backend.latestAttempts(['r1', 'r2', 'r3']);
    expect([...latest.keys()].sort()).toEqual(['r1', 'r2']);
    expect(latest.get('r1')?.attempt_id).toBe('at-3');
    expect(latest.get('r2')?.attempt_id).toBe('at-1');

    const byInsertion = backend.queryAttempts('r1', page());
    expect(byInsertion.items.map((a) => a.attempt_id)).toEqual(['at-1', 'at-3', 'at-2']);
    const bySeq = backend.queryAttempts(
      'r1',
      page({ sort_by: 'sequence_id', sort_order: 'desc', limit: 2 }),
    );
    expect(bySeq).toMatchObject({
      total: 3,
      items: [{ attempt_id: 'at-3' }, { attempt_id: 'at-2' }],
    });
  });
});

describe('SqliteBackend spans', () => {
  it('inserts in order, flags duplicates (also within one batch) and keeps unknown keys', () => {
    const first = span('r1', 'at-1', 's1', { extra_field: { deep: [1, 2] } });
    expect(
      backend.insertSpans([first, span('r1', 'at-1', 's2'), span('r1', 'at-1', 's1')]),
    ).toEqual([true, true, false]);
    expect(backend.insertSpans([span('r1', 'at-1', 's2'), span('r1', 'at-2', 's2')])).toEqual([
      false,
      true,
    ]);
    expect(backend.insertSpans([])).toEqual([]);

    const all = backend.querySpans(spanQuery('r1'));
    expect(all.total).toBe(3);
    expect(all.items[0]).toEqual(first);
    expect(backend.counts()).toMatchObject({ spans: 3 });
    expect(backend.counts().span_bytes).toBeGreaterThanOrEqual(
      3 * JSON.stringify(first).length - 100,
    );
  });

  it('always ANDs rollout and attempt, combining the other filters with filter_logic', () => {
    backend.insertSpans([
      span('r1', 'at-1', 's1', { name: 'llm', parent_id: null, sequence_id: 3 }),
      span('r1', 'at-1', 's2', { name: 'tool', parent_id: 's1', sequence_id: 1 }),
      span('r1', 'at-2', 's3', { name: 'llm', parent_id: 's1', sequence_id: 2 }),
      span('r2', 'at-1', 's4', { name: 'llm', sequence_id: 1 }),
    ]);
    const q = (over: Partial<SpanQuery>) =>
      backend.querySpans(spanQuery('r1', over)).items.map((s) => s.span_id);
    expect(q({})).toEqual(['s2', 's3', 's1']);
    expect(q({ attempt_id: 'at-1' })).toEqual(['s2', 's1']);
    expect(q({ name: 'llm' })).toEqual(['s3', 's1']);
    expect(q({ name: 'llm', parent_id: 's1' })).toEqual(['s3']);
    expect(q({ name: 'llm', parent_id: 's1', filter_logic: 'or' })).toEqual(['s2', 's3', 's1']);
    expect(q({ attempt_id: 'at-2', name: 'tool', span_id: 's1', filter_logic: 'or' })).toEqual([]);
    expect(q({ parent_id_contains: '1' })).toEqual(['s2', 's3']);
    expect(q({ name_contains: 'LL' })).toEqual([]);
    expect(q({ span_id_contains: '', sort_by: 'parent_id', sort_order: 'desc' })).toEqual([
      's2',
      's3',
      's1',
    ]);
  });

  it('allocates sequence ids per rollout from 1 and raises the counter', () => {
    expect(backend.allocateSequenceIds('r1', 1)).toBe(1);
    expect(backend.allocateSequenceIds('r1', 5)).toBe(2);
    expect(backend.allocateSequenceIds('r1', 1)).toBe(7);
    expect(backend.allocateSequenceIds('r2', 2)).toBe(1);
    backend.raiseSequenceId('r1', 20);
    backend.raiseSequenceId('r1', 3);
    expect(backend.allocateSequenceIds('r1', 1)).toBe(21);
    backend.raiseSequenceId('r3', 4.7);
    expect(backend.allocateSequenceIds('r3', 1)).toBe(5);
    backend.raiseSequenceId('r4', -4);
    expect(backend.allocateSequenceIds('r4', 0)).toBe(1);
    expect(backend.allocateSequenceIds('r4', 1)).toBe(1);
    expect(() => backend.allocateSequenceIds('r1', -1)).toThrow(ValidationError);
    expect(() => backend.allocateSequenceIds('r1', 1.5)).toThrow(/count/);
    expect(() => backend.raiseSequenceId('r1', Number.NaN)).toThrow(ValidationError);
    expect(backend.allocateSequenceIds('r1', 1)).toBe(22);
  });
});

describe('SqliteBackend resources and workers', () => {
  it('returns the latest resources by update_time, ties going to the last write', () => {
    expect(backend.getLatestResources()).toBeUndefined();
    backend.putResources(resources('a', 10));
    backend.putResources(resources('b', 30));
    backend.putResources(resources('c', 30));
    expect(backend.getLatestResources()?.resources_id).toBe('c');
    backend.putResources(resources('b', 30, 2));
    expect(backend.getLatestResources()).toEqual(resources('b', 30, 2));
    backend.putResources(resources('a', 40, 2));
    expect(backend.getLatestResources()?.resources_id).toBe('a');

    const all = backend.queryResources({
      ...page(),
      resources_id: null,
      resources_id_contains: null,
    });
    expect(all.items.map((r) => r.resources_id)).toEqual(['a', 'b', 'c']);
    const filtered = backend.queryResources({
      ...page({ sort_by: 'version' }),
      resources_id: 'b',
      resources_id_contains: 'c',
    });
    expect(filtered).toEqual({ items: [], total: 0 });
    expect(backend.getResources('b')?.version).toBe(2);
  });

  it('stores and queries workers', () => {
    backend.putWorker(worker('w-1', { status: 'busy', last_busy_time: 5 }));
    backend.putWorker(worker('w-2', { status: 'idle' }));
    backend.putWorker(worker('x-3', { status: 'busy', last_busy_time: 2 }));
    backend.putWorker(worker('w-2', { status: 'busy', heartbeat_stats: { cpu: 1 } }));
    expect(backend.getWorker('w-2')).toEqual(
      worker('w-2', { status: 'busy', heartbeat_stats: { cpu: 1 } }),
    );
    const q = (over: Partial<WorkerQuery>) =>
      backend.queryWorkers(workerQuery(over)).items.map((w) => w.worker_id);
    expect(q({ status_in: ['busy'], worker_id_contains: 'w-' })).toEqual(['w-1', 'w-2']);
    expect(q({ status_in: ['idle'], worker_id_contains: 'x', filter_logic: 'or' })).toEqual([
      'x-3',
    ]);
    expect(q({ sort_by: 'last_busy_time' })).toEqual(['x-3', 'w-1', 'w-2']);
    expect(backend.counts()).toEqual({
      rollouts: 0,
      attempts: 0,
      spans: 0,
      resources: 0,
      workers: 3,
      span_bytes: 0,
    });
  });
});

describe('SqliteBackend transactions', () => {
  it('rolls back every write of a failed transaction', () => {
    backend.insertRollout(rollout('kept'));
    expect(() =>
      backend.transaction(() => {
        backend.insertRollout(rollout('lost'));
        backend.putRollout(rollout('kept', { status: 'running' }));
        backend.insertAttempt(attempt('lost', 'at-1', 1));
        backend.insertSpans([span('lost', 'at-1', 's1')]);
        backend.pushQueue(['lost']);
        backend.allocateSequenceIds('lost', 3);
        backend.putResources(resources('lost', 1));
        backend.putWorker(worker('lost'));
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(backend.getRollout('lost')).toBeUndefined();
    expect(backend.getRollout('kept')?.status).toBe('queuing');
    expect(backend.counts()).toEqual({
      rollouts: 1,
      attempts: 0,
      spans: 0,
      resources: 0,
      workers: 0,
      span_bytes: 0,
    });
    expect(backend.queueSize()).toBe(0);
    expect(backend.allocateSequenceIds('lost', 1)).toBe(1);
  });

  it('joins nested transactions; a caught inner failure undoes only the inner writes', () => {
    const result = backend.transaction(() => {
      backend.insertRollout(rollout('outer'));
      try {
        backend.transaction(() => {
          backend.insertRollout(rollout('inner'));
          throw new Error('inner');
        });
      } catch {}
      backend.transaction(() => backend.insertRollout(rollout('inner-ok')));
      return 42;
    });
    expect(result).toBe(42);
    expect(ids(backend.queryRollouts(rolloutQuery()).items)).toEqual(['outer', 'inner-ok']);
  });

  it('rejects asynchronous callbacks without keeping their writes', () => {
    expect(() =>
      backend.transaction(() => {
        backend.insertRollout(rollout('async'));
        return Promise.resolve(1);
      }),
    ).toThrow(/synchronous/);
    expect(backend.getRollout('async')).toBeUndefined();
  });

  it('refuses calls after close', () => {
    backend.close();
    expect(() => backend.getRollout('x')).toThrow(StoreClosedError);
    backend.close();
  });
});

describe('SqliteBackend schema', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'arclight-sqlite-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('migrates a fresh file once and reopens it without migrating again', () => {
    const path = join(dir, 'store.db');
    new SqliteBackend({ path }).close();
    const reopened = new SqliteBackend({ path, synchronous: 'normal' });
    reopened.insertRollout(rollout('r'));
    reopened.close();

    const raw = new DatabaseSync(path);
    expect(raw.prepare('PRAGMA user_version').get()?.user_version).toBe(SCHEMA_VERSION);
    expect(raw.prepare('PRAGMA journal_mode').get()?.journal_mode).toBe('wal');
    expect(raw.prepare('SELECT version, description FROM schema_migrations').all()).toEqual([
      { version: 1, description: 'initial schema' },
    ]);
    raw.close();
  });

  it('refuses a database written by a newer schema version and leaves it untouched', () => {
    const path = join(dir, 'newer.db');
    new SqliteBackend({ path }).close();
    const raw = new DatabaseSync(path);
    raw.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`);
    raw.close();
    expect(() => new SqliteBackend({ path })).toThrow(StoreError);
    expect(() => new SqliteBackend({ path })).toThrow(/schema version 2.*newer Arclight/);
    const check = new DatabaseSync(path);
    expect(check.prepare('PRAGMA user_version').get()?.user_version).toBe(SCHEMA_VERSION + 1);
    check.close();
  });

  it('rejects bad options', () => {
    expect(() => new SqliteBackend({ path: '' })).toThrow(/path/);
    expect(() => new SqliteBackend({ path: ':memory:', synchronous: 'off' as 'full' })).toThrow(
      /synchronous/,
    );
    expect(() => new SqliteBackend({ path: join(dir, 'missing', 'x.db') })).toThrow(StoreError);
  });
});
