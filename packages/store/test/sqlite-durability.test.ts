import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { rolloutQuery, spanQuery } from '../src/queries.js';
import { SqliteBackend } from '../src/sqlite/index.js';
import { attempt, rollout, span, worker } from './fixtures/records.js';

const here = dirname(fileURLToPath(import.meta.url));
const WRITER = join(here, 'fixtures', 'sqlite-writer.mjs');
const DIST = join(here, '..', 'dist', 'sqlite');
const SPANS_PER_ROLLOUT = 40;
/** The writer builds its records from these (it runs plain JavaScript and cannot import the fixtures). */
const RECORD_TEMPLATES = JSON.stringify({
  rollout: rollout('template'),
  attempt: attempt('template', 'template', 1),
  span: span('template', 'template', 'template'),
  worker: worker('template'),
});

interface Ack {
  rolloutId: string;
  shared: number;
}

interface WriterRun {
  child: ChildProcess;
  acks: Ack[];
  /** Resolves when the child has exited and its output has been read. */
  finished: Promise<{
    code: number | null;
    signal: NodeJS.Signals | null;
    stderr: string;
    done: boolean;
  }>;
}

/** Starts the writer fixture; `onAck` sees every acknowledged rollout as it arrives. */
function startWriter(
  path: string,
  args: string[],
  onAck?: (ack: Ack, run: WriterRun) => void,
): WriterRun {
  const child = spawn(process.execPath, [WRITER, path, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ARCLIGHT_WRITER_RECORDS: RECORD_TEMPLATES },
  });
  const acks: Ack[] = [];
  let stderr = '';
  let done = false;
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const run: WriterRun = { child, acks, finished: undefined as never };
  const lines = createInterface({ input: child.stdout! });
  lines.on('line', (line) => {
    const [kind, rolloutId, shared] = line.split(' ');
    if (kind === 'done') done = true;
    if (kind !== 'ack' || rolloutId === undefined) return;
    const ack = { rolloutId, shared: Number(shared) };
    acks.push(ack);
    onAck?.(ack, run);
  });
  run.finished = new Promise((resolve) => {
    child.on('close', (code, signal) => resolve({ code, signal, stderr, done }));
  });
  return run;
}

/** Every rollout in the file is complete: attempt, all of its spans, its queue entry. */
function expectOnlyWholeTransactions(backend: SqliteBackend): string[] {
  const all = backend.queryRollouts(rolloutQuery({})).items;
  for (const { rollout_id } of all) {
    expect(backend.getAttempt(rollout_id, `${rollout_id}-at`), rollout_id).toBeDefined();
    const spans = backend.querySpans(spanQuery(rollout_id, {}));
    expect(spans.total, `spans of ${rollout_id}`).toBe(SPANS_PER_ROLLOUT);
    expect(spans.items.map((s) => s.sequence_id)).toEqual(spans.items.map((_, k) => k + 1));
    expect(backend.queueHas(rollout_id), `queue entry of ${rollout_id}`).toBe(true);
  }
  const ids = all.map((r) => r.rollout_id);
  const counts = backend.counts();
  expect(counts).toMatchObject({
    rollouts: ids.length,
    attempts: ids.length,
    spans: ids.length * SPANS_PER_ROLLOUT,
  });
  expect(backend.queueSize()).toBe(ids.length);
  // Each committed transaction drew exactly one id from the shared counter.
  expect(backend.allocateSequenceIds('shared', 1)).toBe(ids.length + 1);
  return ids;
}

let dir: string;
beforeAll(() => {
  // The child processes run the built backend (`tsc -b` emits it; the package's test pipeline builds first).
  const built = join(DIST, 'index.js');
  if (!existsSync(built))
    throw new Error(`${built} is missing: run \`tsc -b\` in packages/store first`);
});
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'arclight-durability-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('SqliteBackend durability', () => {
  it.each(['full', 'normal'])(
    'keeps every acknowledged transaction and no partial one when the writer is killed (synchronous=%s)',
    { timeout: 60_000 },
    async (synchronous) => {
      const path = join(dir, 'crash.db');
      const run = startWriter(
        path,
        ['crash', '-1', String(SPANS_PER_ROLLOUT), synchronous],
        (_ack, r) => {
          if (r.acks.length === 25) r.child.kill('SIGKILL');
        },
      );
      const { signal, stderr } = await run.finished;
      expect(signal, stderr).toBe('SIGKILL');
      expect(run.acks.length).toBeGreaterThanOrEqual(25);

      const backend = new SqliteBackend({ path });
      try {
        const ids = expectOnlyWholeTransactions(backend);
        for (const ack of run.acks) expect(ids).toContain(ack.rolloutId);
        // The writer may have committed one transaction whose ack it never got to print, never more.
        expect(ids.length - run.acks.length).toBeLessThanOrEqual(1);
        expect(run.acks.map((a) => a.shared)).toEqual(run.acks.map((_, k) => k + 1));
        expect(backend.getWorker('crash')?.heartbeat_stats).toEqual({ written: ids.length });
      } finally {
        backend.close();
      }
    },
  );

  it('loses nothing when two processes write the same fresh file at once', {
    timeout: 120_000,
  }, async () => {
    const path = join(dir, 'shared.db');
    const perWriter = 60;
    const runs = ['alpha', 'beta'].map((prefix) =>
      startWriter(path, [prefix, String(perWriter), String(SPANS_PER_ROLLOUT)]),
    );
    const results = await Promise.all(runs.map((r) => r.finished));
    for (const result of results) {
      expect(result.stderr).toBe('');
      expect(result).toMatchObject({ code: 0, done: true });
    }

    const backend = new SqliteBackend({ path });
    try {
      const ids = expectOnlyWholeTransactions(backend);
      expect(ids).toHaveLength(2 * perWriter);
      const shared = runs.flatMap((r) => r.acks.map((a) => a.shared)).sort((a, b) => a - b);
      expect(shared).toEqual(Array.from({ length: 2 * perWriter }, (_, k) => k + 1));
      const popped: string[] = [];
      for (let id = backend.popQueue(); id !== undefined; id = backend.popQueue()) popped.push(id);
      for (const prefix of ['alpha', 'beta']) {
        const own = popped.filter((id) => id.startsWith(`${prefix}-`));
        expect(own).toEqual(Array.from({ length: perWriter }, (_, k) => `${prefix}-${k}`));
      }
    } finally {
      backend.close();
    }
  });
});
