import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';

export const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));

/** The environment for spawned CLIs: this Node (v24) first on PATH, no inherited token. */
export function cliEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
    ...extra,
  };
  if (!('ARCLIGHT_STORE_TOKEN' in extra)) delete env.ARCLIGHT_STORE_TOKEN;
  return env;
}

export interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface Running {
  child: ChildProcessWithoutNullStreams;
  /** Resolves to the base URL from the startup line. */
  url: Promise<string>;
  startupLine: Promise<string>;
  finished: Promise<Finished>;
}

const running: ChildProcessWithoutNullStreams[] = [];
const tempDirs: string[] = [];
afterEach(() => {
  for (const child of running.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'arclight-cli-'));
  tempDirs.push(dir);
  return dir;
}

/** Spawns `node dist/bin.js ...args`, collecting output. */
export function runCli(
  args: string[],
  options: { env?: Record<string, string>; cwd?: string } = {},
): Running {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: cliEnv(options.env),
    cwd: options.cwd ?? tempDir(),
  });
  running.push(child);
  let stdout = '';
  let stderr = '';
  let onLine!: (line: string) => void;
  const startupLine = new Promise<string>((resolve) => {
    onLine = resolve;
  });
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    const newline = stdout.indexOf('\n');
    if (newline >= 0) onLine(stdout.slice(0, newline));
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const finished = new Promise<Finished>((resolve) => {
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  const url = Promise.race([
    startupLine.then((line) => {
      const match = /(http:\/\/\S+)/.exec(line);
      if (!match) throw new Error(`no URL in startup line: ${line}`);
      return match[1]!;
    }),
    finished.then((f) => {
      throw new Error(`CLI exited (code ${f.code}) before starting:\n${f.stderr}`);
    }),
  ]);
  url.catch(() => undefined);
  return { child, url, startupLine, finished };
}

/** Runs the CLI to completion. */
export function runCliToEnd(args: string[], env?: Record<string, string>): Promise<Finished> {
  return runCli(args, { env }).finished;
}
