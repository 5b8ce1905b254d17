// A long-running Python child (a server, an algorithm) whose output is kept for diagnostics.
import { type ChildProcess, spawn } from 'node:child_process';
import type { PythonResult } from './run.js';
import { PYTHON, PYTHON_TIMEOUT_MS, pythonEnv, requirePython } from './venv.js';

export interface PythonStartOptions {
  /** The executable (default `PYTHON`; e.g. `AGL`). */
  command?: string;
  /** Added to (and overriding) `pythonEnv()`. */
  env?: Record<string, string>;
}

const KEPT_OUTPUT = 64_000;

export class PythonProcess {
  private text = '';
  private code: number | null | undefined;
  private closed = false;
  /** Resolves once the process is gone (exit, or a failed spawn). */
  private readonly exited: Promise<void>;
  /** Resolves once its output is complete. */
  private readonly done: Promise<void>;

  private constructor(private readonly child: ChildProcess) {
    child.stdout?.on('data', (chunk: Buffer) => this.append(chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => this.append(chunk.toString()));
    child.on('error', (error) => this.append(`\n[spawn error] ${error.message}\n`));
    this.exited = new Promise((resolve) => {
      child.once('exit', () => resolve());
      child.once('close', () => resolve());
    });
    this.done = new Promise((resolve) => {
      child.once('close', (code) => {
        this.code = code;
        this.closed = true;
        resolve();
      });
    });
  }

  /** Starts `PYTHON args…` (or `options.command args…`); throws when the venv is missing. */
  static start(args: string[], options: PythonStartOptions = {}): PythonProcess {
    requirePython();
    const child = spawn(options.command ?? PYTHON, args, {
      env: pythonEnv(options.env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return new PythonProcess(child);
  }

  /** stdout and stderr interleaved (the last 64,000 characters). */
  get output(): string {
    return this.text;
  }

  /** True until the process has exited and its output is complete. */
  get running(): boolean {
    return !this.closed;
  }

  /** Resolves to the first match of `pattern` in the output (e.g. a READY line). */
  async waitForOutput(pattern: RegExp, timeoutMs = PYTHON_TIMEOUT_MS): Promise<RegExpExecArray> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const match = pattern.exec(this.text);
      if (match) return match;
      if (!this.running)
        throw new Error(`process exited before printing ${pattern}:\n${this.recent()}`);
      if (Date.now() > deadline)
        throw new Error(`no ${pattern} within ${timeoutMs} ms:\n${this.recent()}`);
      await pause(100);
    }
  }

  /** Polls `url` until it answers 200; fails if the process exits first or `timeoutMs` passes. */
  async waitForHttp(url: string, timeoutMs = PYTHON_TIMEOUT_MS): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (!this.running) throw new Error(`process exited before ${url} was up:\n${this.recent()}`);
      try {
        const response = await fetch(url, { signal: AbortSignal.timeout(1000) });
        if (response.status === 200) return;
      } catch {
        // not up yet
      }
      await pause(250);
    }
    throw new Error(`${url} did not come up within ${timeoutMs} ms:\n${this.recent()}`);
  }

  /** Waits for the process to finish; `stdout` holds the whole interleaved output, `stderr` and `result` are empty. */
  async waitForExit(): Promise<PythonResult> {
    await this.done;
    return { code: this.code ?? null, stdout: this.text, stderr: '', result: '' };
  }

  /** SIGTERM, then SIGKILL after 5 s; resolves once the process has exited. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 5000);
    await this.exited;
    clearTimeout(timer);
  }

  private append(text: string): void {
    this.text = (this.text + text).slice(-KEPT_OUTPUT);
  }

  private recent(): string {
    return this.text.slice(-8000);
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
