import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const TRAIN_SCRIPT = fileURLToPath(new URL('../fixtures/train-script.mjs', import.meta.url));

/** Whether a process with this pid exists. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Polls `check` every 25 ms until it is truthy; fails after `seconds` (a generous bound, not a timing assertion). */
export async function eventually<T>(
  check: () => T | Promise<T>,
  what: string,
  seconds = 60,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** A running training script with its output collected line by line. */
export class ScriptProcess {
  readonly child: ChildProcess;
  stdout = '';
  stderr = '';
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  constructor(env: Record<string, string>, script = TRAIN_SCRIPT) {
    this.child = spawn(process.execPath, [script], {
      env: { ...process.env, FIXTURE_REPORT: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child.stdout!.on('data', (chunk: Buffer) => {
      this.stdout += chunk.toString();
    });
    this.child.stderr!.on('data', (chunk: Buffer) => {
      this.stderr += chunk.toString();
    });
    this.exited = new Promise((resolve) => {
      this.child.once('exit', (code, signal) => resolve({ code, signal }));
    });
  }

  lines(prefix: string): string[] {
    return this.stdout
      .split('\n')
      .filter((line) => line.startsWith(`${prefix} `))
      .map((line) => line.slice(prefix.length + 1));
  }

  runnerPids(): number[] {
    return this.lines('RUNNER_PID').map((line) => Number(line.split(' ')[0]));
  }

  kill(signal: NodeJS.Signals = 'SIGKILL'): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
  }
}
