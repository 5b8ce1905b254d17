import { NotFoundError, StoreError, ValidationError } from '@arclight/core';
import { expect, it } from 'vitest';
import { attemptQuery, rolloutQuery, spanQuery } from '../../src/queries.js';
import { attempt, resources, rollout, rolloutIds, span, worker } from '../fixtures/records.js';
import type { ContractCases } from './harness.js';

/** CRUD of every record kind, copies on return, duplicate and unknown ids, latest lookups, counters. */
export const recordCases: ContractCases = (backend) => {
  it('stores rollouts and replaces them in place, keeping insertion order', () => {
    const b = backend();
    b.insertRollout(rollout('ro-1', { input: { nested: [1, { a: 'b' }] } }));
    b.insertRollout(rollout('ro-2'));
    b.insertRollout(rollout('ro-0'));
    b.putRollout(rollout('ro-1', { status: 'running', metadata: { k: 'v' } }));

    expect(b.getRollout('ro-1')).toEqual(
      rollout('ro-1', { status: 'running', metadata: { k: 'v' } }),
    );
    expect(b.getRollout('ro-0')).toEqual(rollout('ro-0'));
    expect(b.getRollout('nope')).toBeUndefined();
    // Without sort_by: insertion order (not id order), and a replaced record keeps its place.
    expect(rolloutIds(b.queryRollouts(rolloutQuery({})).items)).toEqual(['ro-1', 'ro-2', 'ro-0']);
  });

  it('returns copies: mutating a returned record does not change the store', () => {
    const b = backend();
    b.insertRollout(rollout('r1', { metadata: { nested: { n: 1 } } }));
    const got = b.getRollout('r1')!;
    got.status = 'running';
    got.config.max_attempts = 9;
    got.config.retry_condition.push('timeout');
    (got.metadata!.nested as { n: number }).n = 3;
    expect(b.getRollout('r1')).toEqual(rollout('r1', { metadata: { nested: { n: 1 } } }));
    const queried = b.queryRollouts(rolloutQuery({})).items[0]!;
    queried.status = 'cancelled';
    const listed = b.rolloutsWithStatus(['queuing']);
    expect(listed.map((r) => r.status)).toEqual(['queuing']);
    listed[0]!.status = 'failed';
    expect(b.getRollout('r1')?.status).toBe('queuing');

    b.putWorker(worker('w1', { heartbeat_stats: { cpu: 1 } }));
    const w = b.getWorker('w1')!;
    w.heartbeat_stats!.cpu = 2;
    w.status = 'busy';
    expect(b.getWorker('w1')).toEqual(worker('w1', { heartbeat_stats: { cpu: 1 } }));

    b.insertAttempt(attempt('r1', 'a1', 1, { metadata: { k: 'v' } }));
    const a = b.getLatestAttempt('r1')!;
    a.metadata!.k = 'changed';
    a.status = 'failed';
    expect(b.getAttempt('r1', 'a1')).toEqual(attempt('r1', 'a1', 1, { metadata: { k: 'v' } }));

    b.insertSpans([span('r1', 'a1', 's1')]);
    const s = b.querySpans(spanQuery('r1', {})).items[0]!;
    s.name = 'renamed';
    expect(b.querySpans(spanQuery('r1', {})).items[0]!.name).toBe('name-s1');
  });

  it('rejects duplicate inserts with a StoreError naming the id and changes nothing', () => {
    const b = backend();
    b.insertRollout(rollout('ro-dup'));
    b.insertAttempt(attempt('ro-dup', 'at-1', 1));
    expect(() => b.insertRollout(rollout('ro-dup', { status: 'running' }))).toThrow(StoreError);
    expect(() => b.insertRollout(rollout('ro-dup'))).toThrow(/ro-dup/);
    expect(() => b.insertAttempt(attempt('ro-dup', 'at-1', 2))).toThrow(StoreError);
    expect(() => b.insertAttempt(attempt('ro-dup', 'at-1', 5))).toThrow(/at-1/);
    // The store stays usable after a failed call.
    expect(() =>
      b.insertSpans([span('ro-dup', 'at-1', 's1'), span('ro-dup', 'at-1', 's2')]),
    ).not.toThrow();
    expect(b.getRollout('ro-dup')?.status).toBe('queuing');
    expect(b.getLatestAttempt('ro-dup')?.sequence_id).toBe(1);
    expect(b.counts()).toMatchObject({ rollouts: 1, attempts: 1, spans: 2 });
  });

  it('refuses to replace a record that does not exist with a NotFoundError naming it', () => {
    const b = backend();
    b.insertAttempt(attempt('r1', 'a1', 1));
    expect(() => b.putRollout(rollout('ghost'))).toThrow(NotFoundError);
    expect(() => b.putRollout(rollout('ghost'))).toThrow(/ghost/);
    expect(() => b.putAttempt(attempt('ghost', 'at-1', 1))).toThrow(/putAttempt.*at-1.*ghost/);
    expect(() => b.putAttempt(attempt('r1', 'a9', 1))).toThrow(NotFoundError);
    expect(b.counts()).toMatchObject({ rollouts: 0, attempts: 1 });
    expect(b.getLatestAttempt('r1')).toEqual(attempt('r1', 'a1', 1));
  });

  it('tracks the latest attempt by highest sequence_id, also after puts', () => {
    const b = backend();
    b.insertAttempt(attempt('r1', 'a2', 2));
    b.insertAttempt(attempt('r1', 'a1', 1));
    b.insertAttempt(attempt('r2', 'b1', 1, { status: 'running' }));
    expect(b.getLatestAttempt('r1')?.attempt_id).toBe('a2');
    expect(b.latestAttemptId('r1')).toBe('a2');
    b.insertAttempt(attempt('r1', 'a3', 3));
    expect(b.getLatestAttempt('r1')?.attempt_id).toBe('a3');
    // Puts that keep the sequence id (every put the store makes) and puts that change it.
    b.putAttempt(attempt('r1', 'a2', 2, { status: 'running' }));
    expect(b.latestAttemptId('r1')).toBe('a3');
    b.putAttempt(attempt('r1', 'a3', 0));
    expect(b.getLatestAttempt('r1')?.attempt_id).toBe('a2');
    expect(b.latestAttemptId('r1')).toBe('a2');
    expect(b.getAttempt('r1', 'a2')?.status).toBe('running');
    b.putAttempt(attempt('r1', 'a1', 7, { status: 'failed', worker_id: 'w' }));
    expect(b.getLatestAttempt('r1')).toEqual(
      attempt('r1', 'a1', 7, { status: 'failed', worker_id: 'w' }),
    );
    expect(b.latestAttemptId('r1')).toBe('a1');
    expect(
      b
        .queryAttempts('r1', attemptQuery({ sort_by: 'sequence_id' }))
        .items.map((a) => a.attempt_id),
    ).toEqual(['a3', 'a2', 'a1']);
    expect(b.getLatestAttempt('missing')).toBeUndefined();
    expect(b.latestAttemptId('missing')).toBeUndefined();

    const latest = b.latestAttempts(['r1', 'r2', 'missing', 'r1']);
    expect([...latest.keys()]).toEqual(['r1', 'r2']);
    expect(latest.get('r1')?.attempt_id).toBe('a1');
    expect(latest.get('r2')).toEqual(attempt('r2', 'b1', 1, { status: 'running' }));
    expect(b.latestAttempts([]).size).toBe(0);
  });

  it('gets, counts and pages the attempts of one rollout', () => {
    const b = backend();
    b.insertAttempt(attempt('r1', 'at-1', 1));
    b.insertAttempt(attempt('r1', 'at-3', 3));
    b.insertAttempt(attempt('r1', 'at-2', 2));
    b.insertAttempt(attempt('r2', 'at-1', 1, { status: 'running' }));
    expect(b.getAttempt('r2', 'at-1')?.status).toBe('running');
    expect(b.getAttempt('r1', 'at-1')?.status).toBe('preparing');
    expect(b.getAttempt('r2', 'at-9')).toBeUndefined();
    expect(b.countAttempts('r1')).toBe(3);
    expect(b.countAttempts('r9')).toBe(0);

    const byInsertion = b.queryAttempts('r1', attemptQuery({ sort_by: null }));
    expect(byInsertion.items.map((a) => a.attempt_id)).toEqual(['at-1', 'at-3', 'at-2']);
    const bySeq = b.queryAttempts('r1', attemptQuery({ sort_order: 'desc', limit: 2 }));
    expect(bySeq).toMatchObject({
      total: 3,
      items: [{ attempt_id: 'at-3' }, { attempt_id: 'at-2' }],
    });
  });

  it('flags duplicate span keys, also within one batch, and keeps the first with every field', () => {
    const b = backend();
    const first = span('r1', 'a1', 's1', { extra_field: { deep: [1, 2] } });
    expect(
      b.insertSpans([
        first,
        span('r1', 'a1', 's1', { name: 'dup' }),
        span('r1', 'a2', 's1'),
        span('r2', 'a1', 's1'),
        span('r1', 'a1', 's2'),
      ]),
    ).toEqual([true, false, true, true, true]);
    expect(b.insertSpans([span('r1', 'a1', 's1')])).toEqual([false]);
    expect(b.insertSpans([span('r1', 'a1', 's2'), span('r1', 'a3', 's2')])).toEqual([false, true]);
    expect(b.insertSpans([])).toEqual([]);

    const a1 = b.querySpans(spanQuery('r1', { attempt_id: 'a1' }));
    expect(a1.items).toEqual([first, span('r1', 'a1', 's2')]);
    expect(b.querySpans(spanQuery('r1', {})).total).toBe(4);
    expect(b.counts().spans).toBe(5);
  });

  it('large batches: new spans keep their order; one existing span anywhere only flags that span', () => {
    const b = backend();
    const batch = (from: number, to: number) =>
      Array.from({ length: to - from }, (_, i) => span('r1', 'a1', `s${from + i}`));
    expect(b.insertSpans(batch(0, 60))).toEqual(Array(60).fill(true));
    // Spans 55..59 exist; 60..119 are new: one batch of 65 with the existing ones first.
    const mixed = b.insertSpans(batch(55, 120));
    expect(mixed).toEqual([...Array(5).fill(false), ...Array(60).fill(true)]);
    // An existing span in the last rows of a batch, and a duplicate within the batch.
    const tail = [...batch(120, 170), span('r1', 'a1', 's10'), span('r1', 'a1', 's120')];
    expect(b.insertSpans(tail)).toEqual([...Array(50).fill(true), false, false]);
    const stored = b.querySpans(spanQuery('r1', { attempt_id: 'a1', sort_by: null }));
    expect(stored.total).toBe(170);
    expect(stored.items.map((s) => s.span_id)).toEqual(batch(0, 170).map((s) => s.span_id));
    expect(b.counts().spans).toBe(170);
  });

  it('estimates span_bytes from the stored spans', () => {
    const b = backend();
    expect(b.counts().span_bytes).toBe(0);
    const first = span('r1', 'a1', 's1', { extra_field: { deep: [1, 2] } });
    b.insertSpans([first, span('r1', 'a1', 's2'), span('r1', 'a1', 's3')]);
    const { span_bytes } = b.counts();
    expect(span_bytes).toBeGreaterThanOrEqual(3 * JSON.stringify(first).length - 100);
    b.insertSpans([span('r3', 'a1', 's1', { attributes: { big: 'x'.repeat(10_000) } })]);
    expect(b.counts().span_bytes).toBeGreaterThan(span_bytes + 10_000);
  });

  it('allocates sequence ids from 1, consecutively per rollout, and honours raised ids', () => {
    const b = backend();
    expect(b.allocateSequenceIds('r1', 1)).toBe(1);
    expect(b.allocateSequenceIds('r1', 3)).toBe(2);
    expect(b.allocateSequenceIds('r1', 1)).toBe(5);
    expect(b.allocateSequenceIds('r2', 2)).toBe(1);
    b.raiseSequenceId('r1', 10);
    expect(b.allocateSequenceIds('r1', 1)).toBe(11);
    b.raiseSequenceId('r1', 3); // lower than the counter: no effect
    expect(b.allocateSequenceIds('r1', 1)).toBe(12);
    b.raiseSequenceId('r3', 4.7);
    expect(b.allocateSequenceIds('r3', 1)).toBe(5);
    b.raiseSequenceId('r4', -4);
    expect(b.allocateSequenceIds('r4', 0)).toBe(1); // reserves nothing
    expect(b.allocateSequenceIds('r4', 1)).toBe(1);
    expect(() => b.allocateSequenceIds('r1', -1)).toThrow(ValidationError);
    expect(() => b.allocateSequenceIds('r1', 1.5)).toThrow(/count/);
    expect(() => b.raiseSequenceId('r1', Number.NaN)).toThrow(ValidationError);
    expect(b.allocateSequenceIds('r1', 1)).toBe(13);
  });

  it('returns the latest resources: greatest update_time, ties to the last written', () => {
    const b = backend();
    expect(b.getLatestResources()).toBeUndefined();
    b.putResources(resources('a', 10));
    b.putResources(resources('b', 5));
    expect(b.getLatestResources()?.resources_id).toBe('a');
    b.putResources(resources('c', 10));
    expect(b.getLatestResources()?.resources_id).toBe('c');
    b.putResources(resources('a', 10, { version: 2 }));
    expect(b.getLatestResources()).toEqual(resources('a', 10, { version: 2 }));
    // Rewriting the latest with an older time hands "latest" to the best remaining one.
    b.putResources(resources('a', 1, { version: 3 }));
    expect(b.getLatestResources()?.resources_id).toBe('c');
    b.putResources(resources('b', 40, { version: 2 }));
    expect(b.getLatestResources()?.resources_id).toBe('b');
    expect(b.getResources('a')?.version).toBe(3);
    expect(b.getResources('zz')).toBeUndefined();
    expect(b.counts().resources).toBe(3);
  });

  it('stores and replaces workers', () => {
    const b = backend();
    b.putWorker(worker('w-1', { status: 'busy', last_busy_time: 5 }));
    b.putWorker(worker('w-2', { status: 'idle' }));
    b.putWorker(worker('w-2', { status: 'busy', heartbeat_stats: { cpu: 1 } }));
    expect(b.getWorker('w-2')).toEqual(
      worker('w-2', { status: 'busy', heartbeat_stats: { cpu: 1 } }),
    );
    expect(b.getWorker('w-1')?.last_busy_time).toBe(5);
    expect(b.getWorker('nope')).toBeUndefined();
    expect(b.counts()).toEqual({
      rollouts: 0,
      attempts: 0,
      spans: 0,
      resources: 0,
      workers: 2,
      span_bytes: 0,
    });
  });
};
