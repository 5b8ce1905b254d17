import { StoreClosedError, StoreError } from '@arclight/core';
import { expect, it } from 'vitest';
import { rolloutQuery, spanQuery } from '../../src/queries.js';
import { attempt, resources, rollout, rolloutIds, span, worker } from '../fixtures/records.js';
import { Boom, type ContractCases, rollBack } from './harness.js';

/** transaction(): all or nothing, nesting, synchronous callbacks only; snapshot(); close(). */
export const transactionCases: ContractCases = (backend) => {
  it('keeps every write when the callback returns, and returns its value', () => {
    const b = backend();
    const result = b.transaction(() => {
      b.insertRollout(rollout('r1'));
      b.pushQueue(['r1']);
      return 42;
    });
    expect(result).toBe(42);
    expect(b.getRollout('r1')?.rollout_id).toBe('r1');
    expect(b.queueSize()).toBe(1);
  });

  it('undoes rollout inserts and puts, including the status index', () => {
    const b = backend();
    b.insertRollout(rollout('r1', { status: 'queuing' }));
    rollBack(b, () => {
      b.insertRollout(rollout('r2', { status: 'running' }));
      b.putRollout(rollout('r1', { status: 'running', metadata: { changed: true } }));
      b.putRollout(rollout('r1', { status: 'succeeded' }));
      expect(rolloutIds(b.rolloutsWithStatus(['running', 'succeeded']))).toEqual(['r1', 'r2']);
    });
    expect(b.getRollout('r2')).toBeUndefined();
    expect(b.getRollout('r1')).toEqual(rollout('r1', { status: 'queuing' }));
    expect(rolloutIds(b.rolloutsWithStatus(['running', 'succeeded']))).toEqual([]);
    expect(rolloutIds(b.rolloutsWithStatus(['queuing']))).toEqual(['r1']);
    expect(b.queryRollouts(rolloutQuery({})).total).toBe(1);
    expect(b.counts().rollouts).toBe(1);
    // The id rolled back is free again.
    b.insertRollout(rollout('r2'));
    expect(rolloutIds(b.queryRollouts(rolloutQuery({})).items)).toEqual(['r1', 'r2']);
  });

  it('undoes attempt inserts and puts, restoring the latest attempt', () => {
    const b = backend();
    b.insertAttempt(attempt('r1', 'a1', 1));
    rollBack(b, () => {
      b.insertAttempt(attempt('r1', 'a2', 2));
      b.insertAttempt(attempt('r9', 'a1', 1));
      b.putAttempt(attempt('r1', 'a1', 1, { status: 'failed' }));
      expect(b.getLatestAttempt('r1')?.attempt_id).toBe('a2');
    });
    expect(b.getLatestAttempt('r1')).toMatchObject({ attempt_id: 'a1', status: 'preparing' });
    expect(b.countAttempts('r1')).toBe(1);
    expect(b.getLatestAttempt('r9')).toBeUndefined();
    expect(b.countAttempts('r9')).toBe(0);
    expect(b.counts().attempts).toBe(1);
  });

  it('undoes span inserts, counts and bytes', () => {
    const b = backend();
    b.insertSpans([span('r1', 'a1', 's1')]);
    const before = b.counts();
    rollBack(b, () => {
      expect(
        b.insertSpans([span('r1', 'a1', 's2'), span('r1', 'a2', 's1'), span('r2', 'a1', 's1')]),
      ).toEqual([true, true, true]);
    });
    expect(b.counts()).toEqual(before);
    expect(b.querySpans(spanQuery('r1', {})).items.map((s) => s.span_id)).toEqual(['s1']);
    expect(b.querySpans(spanQuery('r2', {})).total).toBe(0);
    // The rolled-back key can be inserted again.
    expect(b.insertSpans([span('r1', 'a1', 's2')])).toEqual([true]);
  });

  it('undoes queue pushes and pops in order', () => {
    const b = backend();
    b.pushQueue(['a', 'b', 'c']);
    rollBack(b, () => {
      expect(b.popQueue()).toBe('a');
      expect(b.popQueue()).toBe('b');
      b.pushQueue(['d', 'a']);
      expect(b.popQueue()).toBe('c');
      expect(b.queueHas('d')).toBe(true);
    });
    expect(b.queueSize()).toBe(3);
    expect(b.queueHas('d')).toBe(false);
    expect([b.popQueue(), b.popQueue(), b.popQueue(), b.popQueue()]).toEqual([
      'a',
      'b',
      'c',
      undefined,
    ]);
  });

  it('undoes sequence id allocation and raising', () => {
    const b = backend();
    expect(b.allocateSequenceIds('r1', 2)).toBe(1);
    rollBack(b, () => {
      expect(b.allocateSequenceIds('r1', 3)).toBe(3);
      b.raiseSequenceId('r1', 50);
      expect(b.allocateSequenceIds('r2', 1)).toBe(1);
      b.raiseSequenceId('r3', 7);
    });
    expect(b.allocateSequenceIds('r1', 1)).toBe(3);
    expect(b.allocateSequenceIds('r2', 1)).toBe(1);
    expect(b.allocateSequenceIds('r3', 1)).toBe(1);
  });

  it('undoes resources and worker puts, restoring the latest resources', () => {
    const b = backend();
    b.putResources(resources('rs-1', 10));
    b.putWorker(worker('w1', { status: 'idle' }));
    rollBack(b, () => {
      b.putResources(resources('rs-2', 20));
      b.putResources(resources('rs-1', 30, { version: 2 }));
      b.putWorker(worker('w1', { status: 'busy' }));
      b.putWorker(worker('w2'));
      expect(b.getLatestResources()?.version).toBe(2);
    });
    expect(b.getLatestResources()).toEqual(resources('rs-1', 10));
    expect(b.getResources('rs-2')).toBeUndefined();
    expect(b.getWorker('w1')?.status).toBe('idle');
    expect(b.getWorker('w2')).toBeUndefined();
    expect(b.counts()).toMatchObject({ resources: 1, workers: 1 });
  });

  it('joins nested transactions; a throwing inner one undoes only its own writes', () => {
    const b = backend();
    const result = b.transaction(() => {
      b.insertRollout(rollout('outer'));
      expect(() =>
        b.transaction(() => {
          b.insertRollout(rollout('inner'));
          b.pushQueue(['inner']);
          throw new Boom('inner');
        }),
      ).toThrow(Boom);
      expect(b.getRollout('inner')).toBeUndefined();
      expect(b.queueSize()).toBe(0);
      b.transaction(() => b.insertRollout(rollout('inner2')));
      return 42;
    });
    expect(result).toBe(42);
    expect(rolloutIds(b.queryRollouts(rolloutQuery({})).items)).toEqual(['outer', 'inner2']);

    // A committed inner transaction is undone with its failing outer one.
    rollBack(b, () => {
      b.transaction(() => b.insertRollout(rollout('committed-inner')));
    });
    expect(b.getRollout('committed-inner')).toBeUndefined();
  });

  it('rejects a callback that returns a promise and undoes its synchronous writes', () => {
    const b = backend();
    const run = () =>
      b.transaction(() => {
        b.insertRollout(rollout('r1'));
        return Promise.resolve(1);
      });
    expect(run).toThrow(StoreError);
    expect(run).toThrow(/synchronous/);
    expect(b.getRollout('r1')).toBeUndefined();
    // The backend is still usable.
    b.transaction(() => b.insertRollout(rollout('r2')));
    expect(b.counts().rollouts).toBe(1);
  });

  it('runs reads in snapshot(), also inside a transaction, and passes errors through', () => {
    const b = backend();
    b.insertRollout(rollout('r1'));
    expect(b.snapshot(() => [b.getRollout('r1')?.rollout_id, b.counts().rollouts])).toEqual([
      'r1',
      1,
    ]);
    // Inside a transaction the snapshot sees the transaction's own writes.
    b.transaction(() => {
      b.insertRollout(rollout('r2'));
      expect(b.snapshot(() => b.queryRollouts(rolloutQuery({})).total)).toBe(2);
    });
    expect(b.snapshot(() => b.snapshot(() => b.getRollout('r2')?.rollout_id))).toBe('r2');
    const error = new Boom('read failed');
    expect(() =>
      b.snapshot(() => {
        b.getRollout('r1');
        throw error;
      }),
    ).toThrow(error);
    // Neither the data nor later transactions are affected.
    b.transaction(() => b.insertRollout(rollout('r3')));
    expect(rolloutIds(b.queryRollouts(rolloutQuery({})).items)).toEqual(['r1', 'r2', 'r3']);
  });

  it('throws StoreClosedError after close, which may be called again', () => {
    const b = backend();
    b.insertRollout(rollout('r1'));
    b.close();
    b.close();
    expect(() => b.getRollout('r1')).toThrow(StoreClosedError);
    expect(() => b.transaction(() => 1)).toThrow(StoreClosedError);
    expect(() => b.snapshot(() => 1)).toThrow(StoreClosedError);
    expect(() => b.insertRollout(rollout('r2'))).toThrow(StoreClosedError);
  });
};
