import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../../../../', import.meta.url));
export const CLI = join(REPO, 'packages/cli/dist/bin.js');
export const ROOM_SELECTOR = join(REPO, 'examples/room-selector/dist/main.js');

/** Debian's Chromium (scripts/install-chromium.sh), or ARCLIGHT_CHROMIUM. */
export function chromiumPath(): string {
  const path = process.env.ARCLIGHT_CHROMIUM ?? '/usr/bin/chromium';
  if (!existsSync(path)) {
    throw new Error(
      `Chromium is not installed at ${path}: run scripts/install-chromium.sh (Debian's chromium package) ` +
        'or set ARCLIGHT_CHROMIUM to a Chromium binary',
    );
  }
  return path;
}

export interface DemoRun {
  dir: string;
  db: string;
  summary: {
    rollouts: number;
    best: { version: string; score: number | null };
    curve: { version: string }[];
  };
  stdout: string;
}

function run(
  args: string[],
  timeoutMs: number,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], cwd: REPO });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(`${args.join(' ')} did not finish in ${timeoutMs} ms:\n${stdout}\n${stderr}`),
      );
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Runs the room-selector example (APO, 4 runners, SQLite store) with small settings into a temp folder. */
export async function runRoomSelector(): Promise<DemoRun> {
  const dir = mkdtempSync(join(tmpdir(), 'arclight-dashboard-'));
  const args = [
    ROOM_SELECTOR,
    '--out',
    dir,
    '--tasks',
    '16',
    '--rounds',
    '2',
    '--val-batch',
    '4',
    '--offline',
  ];
  const result = await run(args, 180_000);
  if (result.code !== 0)
    throw new Error(`room-selector failed (${result.code}):\n${result.stdout}\n${result.stderr}`);
  return {
    dir,
    db: join(dir, 'arclight.sqlite'),
    summary: JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')),
    stdout: result.stdout,
  };
}

export interface StoreProcess {
  url: string;
  stdout: () => string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** `arclight store <args> --port 0`, resolved once it prints its address. */
export function startStore(args: string[]): Promise<StoreProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'store', '--port', '0', ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      cwd: REPO,
    });
    let stdout = '';
    let stderr = '';
    const closed = new Promise<void>((r) => child.once('close', () => r()));
    const stop = async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await closed;
      clearTimeout(timer);
    };
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`arclight store did not start in 30 s:\n${stdout}\n${stderr}`));
    }, 30_000);
    child.stderr.on('data', (d) => (stderr += d));
    child.stdout.on('data', (d) => {
      stdout += d;
      const match = /listening on (http:\/\/\S+)/.exec(stdout);
      if (match && stdout.includes('\n')) {
        clearTimeout(timer);
        resolve({ url: match[1]!, stdout: () => stdout, child, stop });
      }
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      reject(new Error(`arclight store exited (${code}) before listening:\n${stdout}\n${stderr}`));
    });
  });
}

/** A TCP port nothing listens on (bound, then released). */
export function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
