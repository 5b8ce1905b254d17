// Benchmark targets: a fresh server per measurement. Ours in a child process (memory or SQLite in a temp
// file) or in this process; upstream's Python `agl store` from the repo venv. Every child is tracked and
// killed on exit.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InMemoryLightningStore } from '@arclight/store';
import { createLightningStoreServer } from '../dist/index.js';

const here = dirname(fileURLToPath(import.meta.url));
export const VENV = process.env.ARCLIGHT_VENV ?? resolve(here, '../../../.venv');
const AGL = join(VENV, 'bin', 'agl');
const STARTUP_TIMEOUT_MS = 120_000;

/** Children still running and temp dirs still present; `cleanUp()` ends/removes them (exit, signals). */
const children = new Set();
const tempDirs = new Set();

export function cleanUp() {
  for (const child of children) child.kill('SIGKILL');
  children.clear();
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  tempDirs.clear();
}

export function upstreamAvailable() {
  return existsSync(AGL);
}

/** The installed agentlightning version (read from package metadata; does not import the package). */
export function upstreamVersion() {
  const code = 'import importlib.metadata as m; print(m.version("agentlightning"))';
  const result = spawnSync(join(VENV, 'bin', 'python'), ['-c', code], { encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : 'unknown';
}

export const TARGETS = {
  memory: { label: 'ours, in-memory (child process)', start: () => startChild('memory') },
  sqlite: { label: 'ours, SQLite file (child process)', start: () => startChild('sqlite') },
  'memory-inproc': { label: 'ours, in-memory (same process)', start: startInProcess },
  upstream: { label: 'upstream agl store (Python)', start: startUpstream, upstream: true },
  // No store: node:http with a fixed answer, driven with our lifecycle's request pattern (runRoundTrips).
  ceiling: {
    label: 'ceiling: bare node:http, no store (child process)',
    start: () => startChild('bare'),
    ceiling: true,
  },
  // A baseline build of ours (another checkout's server-child.mjs, see README): before/after in one run.
  'memory-base': {
    label: 'baseline, in-memory (child process)',
    start: () => startChild('memory', BASE),
  },
  'sqlite-base': {
    label: 'baseline, SQLite file (child process)',
    start: () => startChild('sqlite', BASE),
  },
  postgres: { label: 'ours, PostgreSQL, 1 process', start: () => startPostgres(1) },
  'postgres-2': { label: 'ours, PostgreSQL, 2 processes', start: () => startPostgres(2) },
  'postgres-4': { label: 'ours, PostgreSQL, 4 processes', start: () => startPostgres(4) },
};

/** The CLI's bin, for `arclight store --backend postgres --workers N` (cluster mode lives in the CLI). */
const CLI_BIN = resolve(here, '../../cli/dist/bin.js');

/**
 * `arclight store --backend postgres --workers N` over a fresh database (default durability:
 * synchronous_commit on) on the server `ARCLIGHT_POSTGRES_URL` names, or the one `scripts/postgres.sh` starts.
 */
async function startPostgres(workers) {
  if (!existsSync(CLI_BIN))
    throw new Error(`${CLI_BIN} is missing: run \`npm run build\` at the repository root first`);
  const { createTestDatabase } = await import('@arclight/test-fixtures/postgres');
  const db = await createTestDatabase('http_bench', { durable: true });
  const args = [CLI_BIN, 'store', '--backend', 'postgres', '--database-url', db.url];
  args.push('--workers', String(workers), '--port', '0', '--host', '127.0.0.1');
  const child = track(spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] }));
  try {
    const [, url] = await waitForLine(child, /listening on (http:\/\/\S+)/);
    return {
      url,
      stop: async () => {
        await stopChild(child);
        await db.drop();
      },
    };
  } catch (error) {
    await stopChild(child);
    await db.drop();
    throw error;
  }
}

/** `ARCLIGHT_BENCH_BASE`: the root of a built checkout whose server is the baseline. */
const BASE = 'base';

async function startChild(backend, which = 'this') {
  const benchDir = which === BASE ? baseBenchDir() : here;
  const dir = backend === 'sqlite' ? mkdtempSync(join(tmpdir(), 'arclight-http-bench-')) : null;
  if (dir) tempDirs.add(dir);
  const args = [join(benchDir, 'server-child.mjs'), backend];
  if (dir) args.push(join(dir, 'store.sqlite'));
  const child = track(
    spawn(process.execPath, args, { cwd: dirname(benchDir), stdio: ['pipe', 'pipe', 'pipe'] }),
  );
  const cleanup = () => {
    if (!dir) return;
    rmSync(dir, { recursive: true, force: true });
    tempDirs.delete(dir);
  };
  try {
    const [, url] = await waitForLine(child, /^READY (\S+)$/m);
    const stop = async () => {
      await stopChild(child);
      cleanup();
    };
    return { url, stop };
  } catch (error) {
    await stopChild(child);
    cleanup();
    throw error;
  }
}

function baseBenchDir() {
  const root = process.env.ARCLIGHT_BENCH_BASE;
  if (!root)
    throw new Error('the *-base targets need ARCLIGHT_BENCH_BASE=<root of a built checkout>');
  const benchDir = resolve(root, 'packages/server/bench');
  if (!existsSync(join(benchDir, '../dist/index.js'))) {
    throw new Error(`${benchDir}/../dist/index.js is missing: build that checkout first`);
  }
  return benchDir;
}

async function startInProcess() {
  const store = new InMemoryLightningStore();
  const server = createLightningStoreServer(store, { host: '127.0.0.1', port: 0 });
  const url = await server.listen();
  const stop = async () => {
    await server.close();
    await store.close();
  };
  return { url, stop };
}

async function startUpstream() {
  const port = await freePort();
  const args = ['store', '--host', '127.0.0.1', '--port', String(port), '--log-level', 'WARNING'];
  const env = { ...process.env, LITELLM_LOCAL_MODEL_COST_MAP: 'True', PYTHONUNBUFFERED: '1' };
  const child = track(spawn(AGL, args, { env, stdio: ['ignore', 'pipe', 'pipe'] }));
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForHealth(child, url);
    return { url, stop: () => stopChild(child) };
  } catch (error) {
    await stopChild(child);
    throw error;
  }
}

function track(child) {
  children.add(child);
  child.output = '';
  const keep = (chunk) => {
    child.output = (child.output + chunk.toString()).slice(-8000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  child.exited = new Promise((done) => child.once('exit', done));
  child.once('exit', () => children.delete(child));
  return child;
}

async function stopChild(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await child.exited;
  clearTimeout(timer);
}

async function waitForLine(child, pattern) {
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  for (;;) {
    const match = pattern.exec(child.output);
    if (match) return match;
    if (child.exitCode !== null) throw new Error(`server exited early:\n${child.output}`);
    if (Date.now() > deadline) throw new Error(`server did not start:\n${child.output}`);
    await sleep(20);
  }
}

async function waitForHealth(child, url) {
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`agl store exited early:\n${child.output}`);
    try {
      const response = await fetch(`${url}/v1/agl/health`, { signal: AbortSignal.timeout(1000) });
      await response.arrayBuffer();
      if (response.status === 200) return;
    } catch {
      // not up yet
    }
    await sleep(200);
  }
  throw new Error(`agl store did not answer ${url}/v1/agl/health:\n${child.output}`);
}

async function freePort() {
  const server = createServer();
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address();
  await new Promise((done) => server.close(done));
  return port;
}

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
