import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Running upstream's Python package (agentlightning 0.3.0) from the repo's venv (`scripts/python-env.sh`).
 * Interop tests never skip silently: without the venv they fail, unless ARCLIGHT_SKIP_PYTHON=1 is set
 * outside CI (then `describe.skipIf(SKIP_PYTHON)` skips them).
 */
const here = dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = resolve(here, '../../../..');
export const PYTHON = process.env.ARCLIGHT_PYTHON ?? resolve(REPO_ROOT, '.venv/bin/python');
export const PYTHON_SCRIPTS = resolve(here, '../python');
export const SKIP_PYTHON = process.env.ARCLIGHT_SKIP_PYTHON === '1' && !process.env.CI;
/** Importing agentlightning takes ~15 s (it imports litellm); scenarios get generous limits. */
export const PYTHON_TIMEOUT_MS = 240_000;

export function requirePython(): void {
  if (!existsSync(PYTHON)) {
    throw new Error(
      `Python venv not found at ${PYTHON}. Run \`bash scripts/python-env.sh\` ` +
        '(or set ARCLIGHT_SKIP_PYTHON=1 to skip interop tests locally).',
    );
  }
}

/** Env for Python children: no network fetch of LiteLLM's cost map, unbuffered output, quiet logs. */
export function pythonEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    LITELLM_LOCAL_MODEL_COST_MAP: 'True',
    PYTHONUNBUFFERED: '1',
    AGL_LOG_LEVEL: 'WARNING',
    ...extra,
  };
}

export interface PythonResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a script to completion. */
export function runPython(
  args: string[],
  extraEnv: Record<string, string> = {},
): Promise<PythonResult> {
  requirePython();
  return new Promise((resolvePromise, reject) => {
    const child = spawn(PYTHON, args, {
      env: pythonEnv(extraEnv),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code, stdout, stderr }));
  });
}

/** The JSON a scenario printed on its `SUMMARY ` line; throws with the output when the script failed. */
export function summaryOf(result: PythonResult): Record<string, unknown> {
  const line = result.stdout.split('\n').find((l) => l.startsWith('SUMMARY '));
  if (result.code !== 0 || !line) {
    throw new Error(
      `Python scenario failed (exit ${result.code}).\n--- stdout ---\n${result.stdout}\n--- stderr ---\n${result.stderr.slice(-8000)}`,
    );
  }
  return JSON.parse(line.slice('SUMMARY '.length)) as Record<string, unknown>;
}

/** A long-running Python child (e.g. upstream's server) whose output is kept for diagnostics. */
export class PythonProcess {
  output = '';
  private exited = false;
  private exitCode: number | null = null;

  private constructor(readonly child: ChildProcess) {
    child.stdout?.on('data', (chunk: Buffer) => this.append(chunk));
    child.stderr?.on('data', (chunk: Buffer) => this.append(chunk));
    child.on('exit', (code) => {
      this.exited = true;
      this.exitCode = code;
    });
  }

  static start(args: string[], extraEnv: Record<string, string> = {}): PythonProcess {
    requirePython();
    const child = spawn(PYTHON, args, {
      env: pythonEnv(extraEnv),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return new PythonProcess(child);
  }

  get running(): boolean {
    return !this.exited;
  }

  /** Resolves to the first match of `pattern` in the output (e.g. a READY line). */
  async waitForOutput(pattern: RegExp, timeoutMs = PYTHON_TIMEOUT_MS): Promise<RegExpExecArray> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const match = pattern.exec(this.output);
      if (match) return match;
      if (!this.running)
        throw new Error(
          `Python process exited before printing ${pattern}:\n${this.output.slice(-8000)}`,
        );
      if (Date.now() > deadline)
        throw new Error(`no ${pattern} within ${timeoutMs} ms:\n${this.output.slice(-8000)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Waits for the process to exit and returns what `runPython` would. */
  async waitForExit(): Promise<PythonResult> {
    if (this.running) await new Promise<void>((r) => this.child.once('exit', () => r()));
    return { code: this.exitCode, stdout: this.output, stderr: this.output };
  }

  /** Polls `url` until it answers 200, the process exits, or `timeoutMs` passes. */
  async waitForHttp(url: string, timeoutMs = PYTHON_TIMEOUT_MS): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (!this.running)
        throw new Error(`Python process exited before ${url} was up:\n${this.output.slice(-8000)}`);
      try {
        const response = await fetch(url, { signal: AbortSignal.timeout(1000) });
        if (response.status === 200) return;
      } catch {
        // not up yet
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new Error(`${url} did not come up within ${timeoutMs} ms:\n${this.output.slice(-8000)}`);
  }

  /** Stops this child (SIGTERM, then SIGKILL) and waits for it to exit. */
  async stop(): Promise<void> {
    if (!this.running) return;
    const exited = new Promise<void>((r) => this.child.once('exit', () => r()));
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  }

  private append(chunk: Buffer): void {
    this.output = (this.output + chunk.toString()).slice(-64_000);
  }
}

/** A free TCP port on 127.0.0.1 (bound then released). */
export async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}
