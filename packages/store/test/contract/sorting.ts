import { expect, it } from 'vitest';
import type { QueryRolloutsParams } from '../../src/lightning-store.js';
import { attemptQuery, rolloutQuery, spanQuery, workerQuery } from '../../src/queries.js';
import { attempt, rollout, rolloutIds, span, worker } from '../fixtures/records.js';
import { type ContractCases, rollBack, withRollouts } from './harness.js';

/**
 * Sorting as upstream's in-memory collection: stable (ties in insertion order, also descending), a null
 * `*_time` sorts as +infinity, any other null as ''; strings by code point. Paging applies after sorting.
 */
export const sortingCases: ContractCases = (backend) => {
  it('pages of a sorted table follow inserts, updates and the writes a failed transaction undid', () => {
    const b = backend();
    const sorted = withRollouts(b, [
      rollout('r1', { start_time: 2 }),
      rollout('r2', { start_time: 4 }),
    ]);
    const page = (offset: number) =>
      sorted({ sort_by: 'start_time', limit: 2, offset, sort_order: 'asc' });
    expect(page(0)).toEqual(['r1', 'r2']);
    b.insertRollout(rollout('r3', { start_time: 1 }));
    expect(page(0)).toEqual(['r3', 'r1']);
    expect(page(2)).toEqual(['r2']);
    b.putRollout(rollout('r3', { start_time: 5, status: 'running' }));
    expect(page(0)).toEqual(['r1', 'r2']);
    expect(b.queryRollouts(rolloutQuery({ sort_by: 'start_time', offset: 2 })).items).toEqual([
      rollout('r3', { start_time: 5, status: 'running' }),
    ]);
    rollBack(b, () => {
      b.insertRollout(rollout('r4', { start_time: 0 }));
      b.putRollout(rollout('r1', { start_time: 9 }));
      expect(page(0)).toEqual(['r4', 'r2']);
    });
    expect(page(0)).toEqual(['r1', 'r2']);
    expect(page(2)).toEqual(['r3']);
    rollBack(b, () => {
      b.insertRollout(rollout('r5', { start_time: 0 }));
      expect(page(0)).toEqual(['r5', 'r1']);
    });
    expect(page(0)).toEqual(['r1', 'r2']);
  });

  it('pages of filtered sorts follow writes, and each filter gets its own order', () => {
    const b = backend();
    const sorted = withRollouts(b, [
      rollout('r1', { start_time: 3, status: 'succeeded' }),
      rollout('r2', { start_time: 1, status: 'failed' }),
      rollout('r3', { start_time: 2, status: 'succeeded' }),
      rollout('r4', { start_time: 2, status: 'running' }),
    ]);
    const page = (status_in: QueryRolloutsParams['status_in'], offset = 0, extra = {}) =>
      sorted({ status_in, sort_by: 'start_time', sort_order: 'desc', limit: 2, offset, ...extra });
    expect(page(['succeeded', 'failed'])).toEqual(['r1', 'r3']);
    expect(page(['succeeded', 'failed'], 2)).toEqual(['r2']);
    expect(page(['running', 'failed'])).toEqual(['r4', 'r2']);
    expect(page(['succeeded', 'failed'], 0, { rollout_id_contains: '3' })).toEqual(['r3']);
    expect(page(['succeeded'], 0, { rollout_id_contains: '4', filter_logic: 'or' })).toEqual([
      'r1',
      'r3',
    ]);
    expect(page(['succeeded'], 2, { rollout_id_contains: '4', filter_logic: 'or' })).toEqual([
      'r4',
    ]);
    // A status change moves a rollout out of one filter's order and into another's.
    b.putRollout(rollout('r1', { start_time: 3, status: 'running' }));
    expect(page(['succeeded', 'failed'])).toEqual(['r3', 'r2']);
    expect(page(['running', 'failed'])).toEqual(['r1', 'r4']);
    b.insertRollout(rollout('r5', { start_time: 2, status: 'failed' }));
    expect(page(['succeeded', 'failed'])).toEqual(['r3', 'r5']);
    rollBack(b, () => {
      b.putRollout(rollout('r3', { start_time: 0, status: 'succeeded' }));
      expect(page(['succeeded', 'failed'])).toEqual(['r5', 'r2']);
    });
    expect(page(['succeeded', 'failed'])).toEqual(['r3', 'r5']);
    expect(page(['succeeded', 'failed'], 2)).toEqual(['r2']);
  });

  it('sorts null *_time values as +infinity and keeps ties in insertion order both ways', () => {
    const sorted = withRollouts(backend(), [
      rollout('r1', { end_time: 5 }),
      rollout('r2', { end_time: null }),
      rollout('r3', { end_time: 5 }),
      rollout('r4', { end_time: 1 }),
      rollout('r5', { end_time: null }),
    ]);
    expect(sorted({ sort_by: 'end_time' })).toEqual(['r4', 'r1', 'r3', 'r2', 'r5']);
    expect(sorted({ sort_by: 'end_time', sort_order: 'desc' })).toEqual([
      'r2',
      'r5',
      'r1',
      'r3',
      'r4',
    ]);
    // All start times are equal: every item ties.
    expect(sorted({ sort_by: 'start_time', sort_order: 'desc' })).toEqual([
      'r1',
      'r2',
      'r3',
      'r4',
      'r5',
    ]);
  });

  it('sorts other null values as the empty string and keeps ties in insertion order both ways', () => {
    const sorted = withRollouts(backend(), [
      rollout('r1', { resources_id: 'rs-b', mode: 'val' }),
      rollout('r2', { resources_id: null, mode: null }),
      rollout('r3', { resources_id: 'rs-a', mode: 'train' }),
      rollout('r4', { resources_id: '', mode: null }),
      rollout('r5', { resources_id: 'rs-a', mode: 'val' }),
    ]);
    expect(sorted({ sort_by: 'resources_id' })).toEqual(['r2', 'r4', 'r3', 'r5', 'r1']);
    expect(sorted({ sort_by: 'resources_id', sort_order: 'desc' })).toEqual([
      'r1',
      'r3',
      'r5',
      'r2',
      'r4',
    ]);
    expect(sorted({ sort_by: 'mode' })).toEqual(['r2', 'r4', 'r3', 'r1', 'r5']);
    expect(sorted({ sort_by: 'mode', sort_order: 'desc' })).toEqual(['r1', 'r5', 'r3', 'r2', 'r4']);
  });

  it('compares strings by code point, like Python', () => {
    // UTF-16 order would put the astral character (a surrogate pair) before U+FFFD.
    const ids = ['\u{1F600}', '\uFFFD', 'b', 'B', 'a', 'ab', ''];
    const sorted = withRollouts(
      backend(),
      ids.map((id) => rollout(id)),
    )({ sort_by: 'rollout_id' });
    expect(sorted).toEqual(['', 'B', 'a', 'ab', 'b', '\uFFFD', '\u{1F600}']);
  });

  it('sorts numbers numerically and pages after sorting', () => {
    const b = backend();
    for (const seq of [10, 2, 33, 1]) b.insertAttempt(attempt('r1', `a${seq}`, seq));
    const all = b.queryAttempts('r1', attemptQuery({ sort_by: 'sequence_id' }));
    expect(all.items.map((a) => a.sequence_id)).toEqual([1, 2, 10, 33]);
    const window = b.queryAttempts(
      'r1',
      attemptQuery({ sort_by: 'sequence_id', sort_order: 'desc', limit: 2, offset: 1 }),
    );
    expect(window).toMatchObject({ total: 4 });
    expect(window.items.map((a) => a.sequence_id)).toEqual([10, 2]);
    expect(b.queryAttempts('missing', attemptQuery({}))).toEqual({ items: [], total: 0 });
  });

  it('sorts spans by sequence_id and workers by nullable times, ties in insertion order', () => {
    const b = backend();
    b.insertSpans([
      span('r1', 'a1', 's1', { sequence_id: 3 }),
      span('r1', 'a1', 's2', { sequence_id: 1 }),
      span('r1', 'a2', 's3', { sequence_id: 2 }),
      span('r1', 'a1', 's4', { sequence_id: 1 }),
    ]);
    const spans = b.querySpans(spanQuery('r1', { sort_by: 'sequence_id' }));
    expect(spans.items.map((s) => s.span_id)).toEqual(['s2', 's4', 's3', 's1']);

    b.putWorker(worker('w1', { last_heartbeat_time: 5 }));
    b.putWorker(worker('w2'));
    b.putWorker(worker('w3', { last_heartbeat_time: 1 }));
    b.putWorker(worker('w4'));
    const workers = b.queryWorkers(workerQuery({ sort_by: 'last_heartbeat_time' }));
    expect(workers.items.map((w) => w.worker_id)).toEqual(['w3', 'w1', 'w2', 'w4']);
  });

  it('pages with total counting every match', () => {
    const b = backend();
    for (let i = 0; i < 10; i++)
      b.insertRollout(rollout(`r${i}`, { status: i % 2 ? 'running' : 'queuing' }));
    const q = (params: QueryRolloutsParams) =>
      b.queryRollouts(rolloutQuery({ status_in: ['queuing'], ...params }));
    expect(q({ limit: 2 })).toMatchObject({ total: 5 });
    expect(rolloutIds(q({ limit: 2 }).items)).toEqual(['r0', 'r2']);
    expect(rolloutIds(q({ limit: 2, offset: 3 }).items)).toEqual(['r6', 'r8']);
    // A last page shorter than the limit, and no limit from an offset on.
    expect(q({ limit: 2, offset: 4 })).toMatchObject({ total: 5, items: [{ rollout_id: 'r8' }] });
    expect(q({ limit: -1, offset: 4 })).toMatchObject({ total: 5, items: [{ rollout_id: 'r8' }] });
    expect(q({ limit: 3, offset: 10 })).toEqual({ items: [], total: 5 });
    const sorted = q({ sort_by: 'rollout_id', sort_order: 'desc', limit: 2, offset: 1 });
    expect(sorted.total).toBe(5);
    expect(rolloutIds(sorted.items)).toEqual(['r6', 'r4']);
    expect(q({ status_in: ['failed'], limit: 2 })).toEqual({ items: [], total: 0 });
  });
};
