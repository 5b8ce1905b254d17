import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { NotFoundError } from '@arclight/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SqliteLightningStore } from '../src/index.js';

// Group commit: the calls a SQLite store gets in one event-loop turn share one commit at the end of the turn,
// and each answers only after it.

let dir: string;
let path: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'arclight-group-commit-'));
  path = join(dir, 'store.sqlite');
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** What another process would read from the file right now (a plain SQLite connection). */
function committedRollouts(): number {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    return Number((db.prepare('SELECT count(*) AS n FROM rollouts').get() as { n: number }).n);
  } finally {
    db.close();
  }
}

describe('SqliteLightningStore group commit', () => {
  it('commits the calls of one turn together, before any of them answers', async () => {
    const store = new SqliteLightningStore({ path });
    try {
      const calls = Array.from({ length: 5 }, (_, i) => store.enqueueRollout({ input: { i } }));
      // Nothing of the turn is on disk yet: the commit comes at its end.
      expect(committedRollouts()).toBe(0);
      const rollouts = await Promise.all(calls);
      expect(rollouts).toHaveLength(5);
      expect(committedRollouts()).toBe(5);
    } finally {
      await store.close();
    }
  });

  it('a call that fails in a group changes nothing and fails alone', async () => {
    const store = new SqliteLightningStore({ path });
    try {
      const first = store.enqueueRollout({ input: 'a' });
      const bad = store.updateAttempt('ro-missing', 'at-missing', { status: 'succeeded' });
      const second = store.enqueueRollout({ input: 'b' });
      await expect(bad).rejects.toBeInstanceOf(NotFoundError);
      const [a, b] = await Promise.all([first, second]);
      expect((await store.getRolloutById(a.rollout_id))?.input).toBe('a');
      expect((await store.getRolloutById(b.rollout_id))?.input).toBe('b');
      expect(committedRollouts()).toBe(2);
    } finally {
      await store.close();
    }
  });

  it('a read that saw a pending write answers after its commit', async () => {
    const store = new SqliteLightningStore({ path });
    try {
      const enqueued = store.enqueueRollout({ input: 'x' });
      const read = store.queryRollouts({});
      let readAnswered = false;
      void read.then(() => {
        readAnswered = true;
      });
      await Promise.resolve();
      expect(readAnswered).toBe(false);
      expect((await read).total).toBe(1);
      expect(committedRollouts()).toBe(1);
      await enqueued;
    } finally {
      await store.close();
    }
  });

  it('a lone write commits at the end of its own turn', async () => {
    const store = new SqliteLightningStore({ path });
    try {
      await store.enqueueRollout({ input: 'first' }); // the first call also runs the watchdog's scan
      const enqueued = store.enqueueRollout({ input: 'alone' });
      await nextTurn();
      expect(committedRollouts()).toBe(2);
      await enqueued;
    } finally {
      await store.close();
    }
  });

  it('while writes keep joining, the group takes them for up to three more turns', async () => {
    const store = new SqliteLightningStore({ path });
    try {
      // Two writes in the first turn, then one more in each of the next nine turns.
      const first = Promise.all([
        store.enqueueRollout({ input: 0 }),
        store.enqueueRollout({ input: 1 }),
      ]);
      let answeredInTurn: number | undefined;
      let turn = 0;
      void first.then(() => {
        answeredInTurn = turn;
      });
      const later: Promise<unknown>[] = [];
      const committedByTurn: number[] = [];
      for (turn = 1; turn <= 9; turn++) {
        await nextTurn();
        committedByTurn.push(committedRollouts());
        later.push(store.enqueueRollout({ input: turn + 1 }));
      }
      await Promise.all([first, ...later]);
      // The first turn's writes share a commit with those of the next three turns, and answer after it.
      expect(committedByTurn.slice(0, 4)).toEqual([0, 0, 0, 5]);
      expect(answeredInTurn).toBe(4);
      expect(committedRollouts()).toBe(11);
    } finally {
      await store.close();
    }
  });

  it('close() commits the pending group', async () => {
    const store = new SqliteLightningStore({ path });
    const enqueued = store.enqueueRollout({ input: 'kept' });
    await store.close();
    await expect(enqueued).resolves.toMatchObject({ input: 'kept' });
    expect(committedRollouts()).toBe(1);
  });

  it('a second store of this process on the same file neither waits for the first nor loses its writes', async () => {
    const first = new SqliteLightningStore({ path });
    const pending = first.enqueueRollout({ input: 'one' });
    // Opening the file again in the same turn would wait (busy timeout, then SQLITE_BUSY) for the write lock
    // the first store holds until the turn ends, unless the first commits before the second opens.
    const second = new SqliteLightningStore({ path });
    try {
      expect(committedRollouts()).toBe(1);
      // While both are open, neither groups: each call commits on its own.
      const fromSecond = second.enqueueRollout({ input: 'two' });
      const fromFirst = first.enqueueRollout({ input: 'three' });
      await Promise.all([pending, fromSecond, fromFirst]);
      expect((await second.queryRollouts({})).total).toBe(3);
    } finally {
      await first.close();
      await second.close();
    }
  });

  it('a read-only store of the same file sees only committed groups and does not stop grouping', async () => {
    const store = new SqliteLightningStore({ path });
    await store.enqueueRollout({ input: 'committed' });
    const pending = store.enqueueRollout({ input: 'pending' });
    const reader = new SqliteLightningStore({ path, readOnly: true });
    try {
      expect((await reader.queryRollouts({})).total).toBe(1);
      const more = [store.enqueueRollout({ input: 'a' }), store.enqueueRollout({ input: 'b' })];
      expect(committedRollouts()).toBe(1); // the writer still groups: nothing of this turn is on disk
      await Promise.all([pending, ...more]);
      expect((await reader.queryRollouts({})).total).toBe(4);
    } finally {
      await reader.close();
      await store.close();
    }
  });

  it('groupCommit: false commits every call before it returns', async () => {
    const store = new SqliteLightningStore({ path, groupCommit: false });
    try {
      const enqueued = store.enqueueRollout({ input: 'now' });
      expect(committedRollouts()).toBe(1);
      await enqueued;
    } finally {
      await store.close();
    }
  });
});
