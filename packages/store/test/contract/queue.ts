import { expect, it } from 'vitest';
import { type ContractCases, rollBack } from './harness.js';

/** The FIFO queue of rollout ids. */
export const queueCases: ContractCases = (backend) => {
  it('is FIFO across pushes and knows its members', () => {
    const b = backend();
    expect(b.popQueue()).toBeUndefined();
    b.pushQueue(['a', 'b']);
    b.pushQueue([]);
    b.pushQueue(['c']);
    expect(b.queueSize()).toBe(3);
    expect(b.queueHas('b')).toBe(true);
    expect(b.popQueue()).toBe('a');
    expect(b.popQueue()).toBe('b');
    expect(b.queueHas('b')).toBe(false);
    b.pushQueue(['a']);
    expect([b.popQueue(), b.popQueue(), b.popQueue()]).toEqual(['c', 'a', undefined]);
    expect(b.queueSize()).toBe(0);
  });

  it('answers queueHas for ids anywhere in the queue, counting duplicates', () => {
    const b = backend();
    b.pushQueue(['a', 'b', 'a']);
    expect(b.queueHas('b')).toBe(true);
    expect(b.queueHas('z')).toBe(false);
    b.popQueue();
    expect(b.queueHas('a')).toBe(true);
    b.popQueue();
    expect(b.queueHas('b')).toBe(false);
    b.popQueue();
    expect(b.queueHas('a')).toBe(false);
    expect(b.queueSize()).toBe(0);

    b.pushQueue(['a']);
    rollBack(b, () => {
      b.pushQueue(['a', 'a']);
      b.popQueue();
    });
    expect(b.queueHas('a')).toBe(true);
    expect(b.popQueue()).toBe('a');
    expect(b.queueHas('a')).toBe(false);
  });
};
