import type { RolloutStatus } from '@arclight/core';
import { expect, it } from 'vitest';
import type { StoreBackend } from '../../src/backend.js';
import type {
  QueryResourcesParams,
  QueryRolloutsParams,
  QuerySpansParams,
  QueryWorkersParams,
} from '../../src/lightning-store.js';
import { resourcesQuery, spanQuery, workerQuery } from '../../src/queries.js';
import { resources, rollout, rolloutIds, span, worker } from '../fixtures/records.js';
import { type ContractCases, withRollouts } from './harness.js';

/** ro-0y queuing, ro-1x running, ro-2y succeeded, ro-3x running, ro-4y failed. */
function seedRollouts(b: StoreBackend): (params: QueryRolloutsParams) => string[] {
  const statuses: RolloutStatus[] = ['queuing', 'running', 'succeeded', 'running', 'failed'];
  return withRollouts(
    b,
    statuses.map((status, i) => rollout(`ro-${i}${i % 2 ? 'x' : 'y'}`, { status })),
  );
}

/** r1: s1 (a1, llm, seq 3), s2 (a1, tool, child of s1, seq 1), s3 (a2, llm, child of s1, seq 2). */
function seedSpans(b: StoreBackend): (params: QuerySpansParams, rolloutId?: string) => string[] {
  b.insertSpans([
    span('r1', 'a1', 's1', { name: 'llm', parent_id: null, sequence_id: 3 }),
    span('r1', 'a1', 's2', { name: 'tool', parent_id: 's1', sequence_id: 1 }),
    span('r1', 'a2', 's3', { name: 'llm', parent_id: 's1', sequence_id: 2 }),
    span('r2', 'a1', 's4', { name: 'llm', sequence_id: 1 }),
  ]);
  return (params: QuerySpansParams, rolloutId = 'r1') =>
    b.querySpans(spanQuery(rolloutId, params)).items.map((s) => s.span_id);
}

/** Conditions, filter_logic, `_in` lists and `_contains` substrings of every query. */
export const filterCases: ContractCases = (backend) => {
  it('matches everything without conditions, with either logic', () => {
    const q = seedRollouts(backend());
    expect(q({})).toHaveLength(5);
    expect(q({ filter_logic: 'or' })).toHaveLength(5);
    expect(q({ rollout_id_in: null, status_in: null, filter_logic: 'or' })).toHaveLength(5);
  });

  it('combines rollout conditions with and / or', () => {
    const q = seedRollouts(backend());
    expect(q({ status_in: ['running', 'failed'], rollout_id_contains: 'x' })).toEqual([
      'ro-1x',
      'ro-3x',
    ]);
    expect(q({ status_in: ['failed'], rollout_id_contains: 'x', filter_logic: 'or' })).toEqual([
      'ro-1x',
      'ro-3x',
      'ro-4y',
    ]);
    expect(
      q({ rollout_id_in: ['ro-4y', 'ro-0y', 'nope', 'ro-4y'], status_in: ['failed', 'queuing'] }),
    ).toEqual(['ro-0y', 'ro-4y']);
    expect(q({ rollout_id_in: ['ro-2y'], status_in: ['failed'], filter_logic: 'or' })).toEqual([
      'ro-2y',
      'ro-4y',
    ]);
  });

  it('treats an empty _in list as matching nothing', () => {
    const b = backend();
    const q = seedRollouts(b);
    expect(q({ status_in: [] })).toEqual([]);
    expect(q({ rollout_id_in: [] })).toEqual([]);
    expect(q({ status_in: [], rollout_id_contains: '4', filter_logic: 'or' })).toEqual(['ro-4y']);
    b.putWorker(worker('w1'));
    expect(b.queryWorkers(workerQuery({ status_in: [] })).total).toBe(0);
  });

  it('matches _contains as a literal, case-sensitive substring (% and _ are no wildcards)', () => {
    const q = withRollouts(backend(), [rollout('ro-a%1'), rollout('ro-b_2'), rollout('RO-c3')]);
    expect(q({ rollout_id_contains: '%' })).toEqual(['ro-a%1']);
    expect(q({ rollout_id_contains: '_' })).toEqual(['ro-b_2']);
    expect(q({ rollout_id_contains: 'ro-' })).toEqual(['ro-a%1', 'ro-b_2']);
    expect(q({ rollout_id_contains: '' })).toEqual(['ro-a%1', 'ro-b_2', 'RO-c3']);
  });

  it('lists rollouts with the given statuses in insertion order', () => {
    const b = backend();
    seedRollouts(b);
    expect(rolloutIds(b.rolloutsWithStatus(['failed', 'running']))).toEqual([
      'ro-1x',
      'ro-3x',
      'ro-4y',
    ]);
    expect(b.rolloutsWithStatus([])).toEqual([]);
  });

  it('always ANDs the span rollout_id and attempt_id, whatever filter_logic says', () => {
    const q = seedSpans(backend());
    expect(q({})).toEqual(['s2', 's3', 's1']);
    expect(q({ sort_by: null })).toEqual(['s1', 's2', 's3']);
    expect(q({}, 'r2')).toEqual(['s4']);
    expect(q({ attempt_id: 'a1' })).toEqual(['s2', 's1']);
    expect(q({ name: 'llm', filter_logic: 'or' })).toEqual(['s3', 's1']);
    expect(q({ attempt_id: 'a1', name: 'llm', parent_id: 's1', filter_logic: 'or' })).toEqual([
      's2',
      's1',
    ]);
    expect(q({ attempt_id: 'a1', name: 'llm', parent_id: 's1' })).toEqual([]);
    expect(q({ attempt_id: 'a2', name: 'tool', span_id: 's1', filter_logic: 'or' })).toEqual([]);
    expect(q({ attempt_id: 'zz' })).toEqual([]);
    expect(q({}, 'nope')).toEqual([]);
  });

  it('combines the other span filters with filter_logic', () => {
    const q = seedSpans(backend());
    expect(q({ name: 'llm' })).toEqual(['s3', 's1']);
    expect(q({ name: 'llm', parent_id: 's1' })).toEqual(['s3']);
    expect(q({ name: 'llm', parent_id: 's1', filter_logic: 'or' })).toEqual(['s2', 's3', 's1']);
    expect(q({ parent_id_contains: '1' })).toEqual(['s2', 's3']);
    // A null field never matches a substring, not even the empty one.
    expect(q({ parent_id_contains: '' })).toEqual(['s2', 's3']);
    expect(q({ name_contains: 'LL' })).toEqual([]);
    expect(q({ span_id_contains: '3', name_contains: 'oo', filter_logic: 'or' })).toEqual([
      's2',
      's3',
    ]);
    expect(q({ span_id_contains: '', sort_by: 'parent_id', sort_order: 'desc' })).toEqual([
      's2',
      's3',
      's1',
    ]);
  });

  it('filters workers with and / or, on their current state', () => {
    const b = backend();
    b.putWorker(worker('w-1', { status: 'busy', last_busy_time: 5 }));
    b.putWorker(worker('w-2', { status: 'idle' }));
    b.putWorker(worker('x-3', { status: 'busy', last_busy_time: 2 }));
    b.putWorker(worker('w-4', { status: 'idle' }));
    b.putWorker(worker('w-2', { status: 'busy' }));
    const q = (params: QueryWorkersParams) =>
      b.queryWorkers(workerQuery(params)).items.map((w) => w.worker_id);
    expect(q({ status_in: ['busy'], worker_id_contains: 'w-' })).toEqual(['w-1', 'w-2']);
    expect(q({ status_in: ['idle'], worker_id_contains: 'x', filter_logic: 'or' })).toEqual([
      'x-3',
      'w-4',
    ]);
    expect(q({ sort_by: 'last_busy_time' })).toEqual(['x-3', 'w-1', 'w-2', 'w-4']);
  });

  it('combines resources conditions with AND', () => {
    const b = backend();
    for (const id of ['default', 'v0', 'v1']) b.putResources(resources(id, 1));
    b.putResources(resources('v0', 9, { version: 2 }));
    const q = (params: QueryResourcesParams) =>
      b.queryResources(resourcesQuery(params)).items.map((u) => u.resources_id);
    expect(q({})).toEqual(['default', 'v0', 'v1']);
    expect(q({ resources_id_contains: 'v' })).toEqual(['v0', 'v1']);
    expect(q({ resources_id: 'v0', resources_id_contains: 'v' })).toEqual(['v0']);
    expect(
      b.queryResources(
        resourcesQuery({ resources_id: 'default', resources_id_contains: 'v', sort_by: 'version' }),
      ),
    ).toEqual({ items: [], total: 0 });
    expect(q({ sort_by: 'resources_id', sort_order: 'desc' })).toEqual(['v1', 'v0', 'default']);
  });
};
