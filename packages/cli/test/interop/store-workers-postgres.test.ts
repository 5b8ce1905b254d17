import { execFileSync } from 'node:child_process';
import { LightningStoreClient } from '@arclight/client';
import type { AttemptedRollout } from '@arclight/core';
import { makeSpan } from '@arclight/store/testing';
import { createTestDatabase, type TestDatabase } from '@arclight/test-fixtures/postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Running, runCli } from '../cli.js';

/**
 * `arclight store --backend postgres --workers N`: several server processes (Node cluster, one port) over one
 * PostgreSQL database, driven by 64 concurrent runners, each with its own client (its own connections,
 * which the cluster spreads over the processes).
 */
const RUNNERS = 64;
let db: TestDatabase;
let sql: pg.Client;

beforeAll(async () => {
  db = await createTestDatabase('store_workers');
  sql = new pg.Client({ connectionString: db.url });
  await sql.connect();
});
afterAll(async () => {
  await sql?.end();
  await db?.drop();
});

function startCluster(workers: number, schema: string): Running {
  return runCli([
    'store',
    '--backend',
    'postgres',
    '--database-url',
    db.url,
    '--schema',
    schema,
    '--workers',
    String(workers),
    '--port',
    '0',
  ]);
}

async function stop(cluster: Running): Promise<void> {
  cluster.child.kill('SIGTERM');
  const done = await cluster.finished;
  expect(done.code, done.stderr).toBe(0);
  expect(done.stderr).not.toMatch(/EPIPE|Error/);
}

const client = (url: string) =>
  new LightningStoreClient(url, {
    retryDelays: [0.05, 0.2, 0.5, 1, 2],
    healthRetryDelays: [0.1, 0.5, 1],
  });

interface RunLog {
  /** rollout id → runners that got it from a dequeue (acknowledged). */
  dequeuedBy: Map<string, string[]>;
  /** Spans whose addSpan was acknowledged: rollout id → span ids. */
  spans: Map<string, string[]>;
  succeeded: Set<string>;
  dequeuesAfter: (moment: number) => number;
}

/** 64 runners: dequeue, write `spansEach` spans (heartbeats), finish the attempt; stop when the queue is empty. */
async function runRunners(
  url: string,
  spansEach: number,
  onProgress?: (done: number) => void,
): Promise<RunLog> {
  const log: RunLog = {
    dequeuedBy: new Map(),
    spans: new Map(),
    succeeded: new Set(),
    dequeuesAfter: () => 0,
  };
  const dequeueTimes: number[] = [];
  log.dequeuesAfter = (moment) => dequeueTimes.filter((t) => t > moment).length;
  let seed = 0x500000;
  const runner = async (index: number): Promise<void> => {
    const workerId = `runner-${index}`;
    const store = client(url);
    try {
      for (;;) {
        const rollout: AttemptedRollout | null = await store.dequeueRollout({
          worker_id: workerId,
        });
        if (!rollout) return;
        dequeueTimes.push(Date.now());
        log.dequeuedBy.set(rollout.rollout_id, [
          ...(log.dequeuedBy.get(rollout.rollout_id) ?? []),
          workerId,
        ]);
        const key = { rollout_id: rollout.rollout_id, attempt_id: rollout.attempt.attempt_id };
        for (let i = 0; i < spansEach; i++) {
          const sequence_id = await store.getNextSpanSequenceId(key.rollout_id, key.attempt_id);
          const stored = await store.addSpan(makeSpan({ ...key, sequence_id }, { seed: ++seed }));
          if (stored)
            log.spans.set(key.rollout_id, [
              ...(log.spans.get(key.rollout_id) ?? []),
              stored.span_id,
            ]);
        }
        await store.updateAttempt(key.rollout_id, key.attempt_id, { status: 'succeeded' });
        log.succeeded.add(key.rollout_id);
        onProgress?.(log.succeeded.size);
      }
    } finally {
      await store.close();
    }
  };
  await Promise.all(Array.from({ length: RUNNERS }, (_, i) => runner(i)));
  return log;
}

async function rows<T extends pg.QueryResultRow>(schema: string, text: string): Promise<T[]> {
  return (await sql.query<T>(text.replaceAll('$schema', `"${schema}"`))).rows;
}

describe('arclight store --backend postgres --workers N', () => {
  it('3 processes, 64 runners, 160 rollouts: none dequeued twice or lost, dense sequence ids, consistent statuses', {
    timeout: 240_000,
  }, async () => {
    const cluster = startCluster(3, 'load');
    const url = await cluster.url;
    const workerPids = execFileSync('ps', ['--ppid', String(cluster.child.pid), '-o', 'pid='], {
      encoding: 'utf8',
    })
      .trim()
      .split(/\s+/);
    expect(workerPids).toHaveLength(3);
    const admin = client(url);
    const enqueued = await admin.enqueueManyRollouts(
      Array.from({ length: 160 }, (_, i) => ({ input: { task: i } })),
    );
    const log = await runRunners(url, 3);

    // Every rollout went to exactly one runner and succeeded with one attempt.
    expect([...log.dequeuedBy.values()].filter((by) => by.length > 1)).toEqual([]);
    expect(new Set(log.dequeuedBy.keys())).toEqual(new Set(enqueued.map((r) => r.rollout_id)));
    const statuses = await rows<{ status: string; n: string }>(
      'load',
      'SELECT status, count(*) AS n FROM $schema.rollouts GROUP BY status',
    );
    expect(statuses).toEqual([{ status: 'succeeded', n: '160' }]);
    const attempts = await rows<{ status: string; sequence_id: number; n: string }>(
      'load',
      'SELECT status, sequence_id, count(*) AS n FROM $schema.attempts GROUP BY 1, 2',
    );
    expect(attempts).toEqual([{ status: 'succeeded', sequence_id: 1, n: '160' }]);
    // Sequence ids: 1..3 in every rollout, across processes.
    const gaps = await rows(
      'load',
      `SELECT rollout_id FROM $schema.spans GROUP BY rollout_id
         HAVING array_agg(sequence_id ORDER BY sequence_id) <> ARRAY[1, 2, 3]::bigint[]`,
    );
    expect(gaps).toEqual([]);
    expect(await rows('load', 'SELECT count(*)::int AS n FROM $schema.spans')).toEqual([
      { n: 480 },
    ]);
    expect(await rows('load', 'SELECT count(*)::int AS n FROM $schema.rollout_queue')).toEqual([
      { n: 0 },
    ]);
    // Workers: every runner ended idle (its last dequeue found the queue empty), none is left busy.
    const workers = await admin.queryWorkers();
    expect(workers.total).toBe(RUNNERS);
    expect(new Set(workers.items.map((w) => w.status))).toEqual(new Set(['idle']));
    await admin.close();
    await stop(cluster);
  });

  it('the watchdog, run by every process, moves each timed-out attempt exactly once', {
    timeout: 120_000,
  }, async () => {
    const cluster = startCluster(3, 'watchdog');
    const url = await cluster.url;
    const clients = Array.from({ length: 6 }, () => client(url));
    const started = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        clients[i % clients.length]!.startRollout({
          input: i,
          config: { timeout_seconds: 1, max_attempts: 2, retry_condition: ['timeout'] },
        }),
      ),
    );
    const ids = started.map((r) => r.rollout_id);
    // Keep every process busy with watchdog-guarded calls until all rollouts were requeued (the shared
    // debounce lets a scan run at most every 10 s).
    const deadline = Date.now() + 90_000;
    for (;;) {
      const pages = await Promise.all(clients.map((c) => c.queryRollouts({ rollout_id_in: ids })));
      if (pages.every((page) => page.items.every((r) => r.status === 'requeuing'))) break;
      expect(Date.now(), 'rollouts were not requeued by the watchdog in time').toBeLessThan(
        deadline,
      );
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    // Exactly one transition each: one timed-out attempt, one queue entry, one end of attempt 1.
    expect(
      await rows('watchdog', 'SELECT status, count(*)::int AS n FROM $schema.attempts GROUP BY 1'),
    ).toEqual([{ status: 'timeout', n: 30 }]);
    expect(
      await rows(
        'watchdog',
        'SELECT count(*)::int AS entries, count(DISTINCT rollout_id)::int AS rollouts FROM $schema.rollout_queue',
      ),
    ).toEqual([{ entries: 30, rollouts: 30 }]);
    const again = await clients[0]!.dequeueManyRollouts({ limit: 100, worker_id: 'w' });
    expect(again.map((r) => r.attempt.sequence_id)).toEqual(Array(30).fill(2));
    for (const c of clients) await c.close();
    await stop(cluster);
  });

  it('kill -9 of one process mid-load loses no acknowledged write and the others keep serving', {
    timeout: 240_000,
  }, async () => {
    const cluster = startCluster(3, 'kill');
    const url = await cluster.url;
    const workerPids = execFileSync('ps', ['--ppid', String(cluster.child.pid), '-o', 'pid='], {
      encoding: 'utf8',
    })
      .trim()
      .split(/\s+/)
      .map(Number);
    const admin = client(url);
    await admin.enqueueManyRollouts(
      Array.from({ length: 200 }, (_, i) => ({ input: { task: i } })),
    );
    let killedAt = Number.POSITIVE_INFINITY;
    const log = await runRunners(url, 2, (done) => {
      if (done === 40 && killedAt === Number.POSITIVE_INFINITY) {
        killedAt = Date.now();
        process.kill(workerPids[0]!, 'SIGKILL');
      }
    });
    expect(killedAt).toBeLessThan(Number.POSITIVE_INFINITY);
    // The other processes (and the replacement the primary starts) kept serving.
    expect(log.dequeuesAfter(killedAt)).toBeGreaterThan(50);

    // No rollout was handed to two runners.
    expect([...log.dequeuedBy.values()].filter((by) => by.length > 1)).toEqual([]);
    // Every acknowledged write is in the database.
    const succeeded = new Set(
      (
        await rows<{ rollout_id: string }>(
          'kill',
          "SELECT rollout_id FROM $schema.rollouts WHERE status = 'succeeded'",
        )
      ).map((r) => r.rollout_id),
    );
    expect([...log.succeeded].filter((id) => !succeeded.has(id))).toEqual([]);
    const storedSpans = new Set(
      (
        await rows<{ k: string }>(
          'kill',
          "SELECT rollout_id || '/' || span_id AS k FROM $schema.spans",
        )
      ).map((r) => r.k),
    );
    const missing = [...log.spans].flatMap(([rolloutId, spanIds]) =>
      spanIds.filter((id) => !storedSpans.has(`${rolloutId}/${id}`)),
    );
    expect(missing).toEqual([]);
    // Sequence ids stay unique per rollout (a retried request whose answer was lost may leave a gap).
    expect(
      await rows(
        'kill',
        'SELECT rollout_id FROM $schema.spans GROUP BY rollout_id HAVING count(*) <> count(DISTINCT sequence_id)',
      ),
    ).toEqual([]);
    // Nothing lost: a rollout not succeeded is one whose dequeue answer died with the killed process —
    // dequeued (preparing, one attempt, no spans), never acknowledged to a runner, and recoverable by
    // the watchdog (unresponsive) like any runner that disappears.
    const unfinished = await rows<{
      rollout_id: string;
      status: string;
      attempts: number;
      spans: number;
    }>(
      'kill',
      `SELECT r.rollout_id, r.status,
           (SELECT count(*)::int FROM $schema.attempts a WHERE a.rollout_id = r.rollout_id) AS attempts,
           (SELECT count(*)::int FROM $schema.spans s WHERE s.rollout_id = r.rollout_id) AS spans
         FROM $schema.rollouts r WHERE r.status <> 'succeeded'`,
    );
    expect(unfinished.length).toBeLessThanOrEqual(RUNNERS);
    for (const row of unfinished) {
      expect(row).toMatchObject({ status: 'preparing', attempts: 1, spans: 0 });
      expect(log.dequeuedBy.has(row.rollout_id)).toBe(false);
    }
    expect(succeeded.size + unfinished.length).toBe(200);
    await admin.close();
    await stop(cluster);
    const output = await cluster.finished;
    expect(output.stdout).toMatch(/exited \(SIGKILL\); starting a replacement/);
  });
});
