import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createTestDatabase, type TestDatabase } from '@arclight/test-fixtures/postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DemoSummary } from '../../src/demo.js';

/**
 * The store-postgres README's "room-selector against N processes" recipe, run literally: `arclight store --backend
 * postgres --workers 2`, the demo with `--store`, then `arclight export --store` reading the same rollouts back.
 */
const ARCLIGHT = resolve(import.meta.dirname, '../../../../node_modules/.bin/arclight');
const MAIN = resolve(import.meta.dirname, '../../dist/main.js');

let db: TestDatabase;
let server: ChildProcess | undefined;
let serverLog = '';
let outDir: string;

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
  });
}

async function waitHealthy(url: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (server?.exitCode !== null) throw new Error(`arclight store exited:\n${serverLog}`);
    try {
      if ((await fetch(`${url}/v1/agl/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`arclight store did not answer /v1/agl/health within 60 s:\n${serverLog}`);
}

beforeAll(async () => {
  db = await createTestDatabase('room_selector_workers');
  outDir = mkdtempSync(join(tmpdir(), 'room-selector-pg-'));
});
afterAll(async () => {
  server?.kill('SIGTERM');
  if (server && server.exitCode === null) await new Promise((r) => server!.once('exit', r));
  await db?.drop();
  if (outDir) rmSync(outDir, { recursive: true, force: true });
});

describe('room-selector over arclight store --backend postgres --workers 2', () => {
  it('trains end to end against the cluster, and arclight export reads every rollout back', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    server = spawn(
      ARCLIGHT,
      ['store', '--backend', 'postgres', '--workers', '2', '--port', String(port)].concat([
        '--database-url',
        db.url,
      ]),
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    server.stdout!.on('data', (d) => (serverLog += d));
    server.stderr!.on('data', (d) => (serverLog += d));
    await waitHealthy(url);

    const env = { ...process.env };
    delete env.OPENAI_API_KEY;
    delete env.OPENAI_BASE_URL;
    const demo = spawnSync(
      process.execPath,
      [MAIN, '--store', url, '--out', outDir, '--runners', '2', '--rounds', '1'].concat(
        ['--beam-width', '1', '--branch-factor', '1', '--val-batch', '4', '--tasks', '12'],
        ['--json'],
      ),
      { env, encoding: 'utf8', timeout: 180_000 },
    );
    expect(demo.status, `${demo.stderr}\n${serverLog}`).toBe(0);
    const summary = JSON.parse(demo.stdout.trim().split('\n').at(-1)!) as DemoSummary;
    expect(summary.rollouts).toBeGreaterThan(0);
    expect(summary.best.score).not.toBeNull();

    const out = join(outDir, 'from-cluster.jsonl');
    const exported = spawnSync(
      ARCLIGHT,
      ['export', '--store', url, '--format', 'triplets', '--out', out],
      { encoding: 'utf8', timeout: 120_000 },
    );
    expect(exported.status, exported.stderr).toBe(0);
    const rows = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    // Every rollout of the run made two LLM calls (tool call, answer), each with its token ids.
    expect(rows).toHaveLength(2 * summary.rollouts);
    expect(new Set(rows.map((r) => r.rollout_id)).size).toBe(summary.rollouts);
    for (const row of rows) {
      expect(row.prompt.token_ids.length).toBeGreaterThan(0);
      expect(row.response.token_ids.length).toBeGreaterThan(0);
    }
  }, 300_000);
});
