import type { Span } from '@arclight/core';
import { describe, expect, it } from 'vitest';
import { MemoryBackend } from '../src/memory/index.js';
import { estimateSpanBytes } from '../src/memory/span-table.js';
import { Boom, rollBack } from './contract/harness.js';
import { attempt, rollout, span, worker } from './fixtures/records.js';

// What only MemoryBackend does; the StoreBackend contract runs in backend-contract.test.ts.

describe('MemoryBackend span size estimator', () => {
  it('counts span_bytes with the given estimator and keeps insertSpans atomic when it throws', () => {
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
    expect(backend.insertSpans([span('r1', 'a1', 's1'), span('r1', 'a1', 's2')])).toEqual([
      true,
      true,
    ]);
    expect(backend.counts()).toMatchObject({ spans: 2, span_bytes: 20 });
  });

  it('adds up the default estimate when span_bytes is read, and a rollback undoes it either side of a read', () => {
    const [a, b, c] = ['s1', 's2', 's3'].map((id) => span('r1', 'a1', id)) as [Span, Span, Span];
    const size = (s: Span): number => estimateSpanBytes(s);
    const backend = new MemoryBackend();
    backend.insertSpans([a]);
    expect(backend.counts()).toMatchObject({ spans: 1, span_bytes: size(a) });
    rollBack(backend, () => {
      backend.insertSpans([b]);
      expect(backend.counts().span_bytes).toBe(size(a) + size(b));
      backend.insertSpans([c]);
    });
    expect(backend.counts()).toMatchObject({ spans: 1, span_bytes: size(a) });
    backend.insertSpans([b, c]);
    rollBack(backend, () => backend.insertSpans([span('r2', 'a1', 's1')]));
    expect(backend.counts()).toMatchObject({ spans: 3, span_bytes: size(a) + size(b) + size(c) });
  });
});

describe('MemoryBackend copy policy', () => {
  it('copies records on the way in: mutating a passed-in record does not change the store', () => {
    const backend = new MemoryBackend();
    const input = rollout('r1', { metadata: { nested: { n: 1 } } });
    backend.insertRollout(input);
    input.status = 'failed';
    input.config.retry_condition.push('failed');
    (input.metadata!.nested as { n: number }).n = 2;
    expect(backend.getRollout('r1')).toEqual(rollout('r1', { metadata: { nested: { n: 1 } } }));

    const stats = { cpu: 1 };
    backend.putWorker(worker('w1', { heartbeat_stats: stats }));
    stats.cpu = 2;
    expect(backend.getWorker('w1')?.heartbeat_stats).toEqual({ cpu: 1 });

    const passed = attempt('r1', 'a1', 1, { metadata: { k: 'v' } });
    backend.insertAttempt(passed);
    passed.status = 'failed';
    passed.metadata!.k = 'changed';
    expect(backend.getAttempt('r1', 'a1')).toEqual(
      attempt('r1', 'a1', 1, { metadata: { k: 'v' } }),
    );
  });
});

describe('MemoryBackend queue compaction', () => {
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
