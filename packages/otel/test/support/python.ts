import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Upstream's Python package (agentlightning 0.3.0) from the repo's venv (`scripts/python-env.sh`). The
 * cross-check never skips silently: without the venv it fails, unless ARCLIGHT_SKIP_PYTHON=1 is set (and CI
 * is not).
 */
const here = dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = resolve(here, '../../../..');
export const VENV_BIN = resolve(REPO_ROOT, '.venv/bin');
export const PYTHON = process.env.ARCLIGHT_PYTHON ?? resolve(VENV_BIN, 'python');
export const PYTHON_SCRIPTS = resolve(here, '../python');
export const SKIP_PYTHON = process.env.ARCLIGHT_SKIP_PYTHON === '1' && !process.env.CI;

export function requirePython(): void {
  if (!existsSync(PYTHON)) {
    throw new Error(
      `Python venv not found at ${PYTHON}. Run \`bash scripts/python-env.sh\` ` +
        '(or set ARCLIGHT_SKIP_PYTHON=1 to skip the Python cross-check locally).',
    );
  }
}

/** Env for Python children: no network fetch of LiteLLM's cost map, unbuffered output, quiet logs. */
function pythonEnv(): NodeJS.ProcessEnv {
  return {
    ...process.env,
    LITELLM_LOCAL_MODEL_COST_MAP: 'True',
    PYTHONUNBUFFERED: '1',
    AGL_LOG_LEVEL: 'WARNING',
  };
}

/** A child process whose output is kept for diagnostics. */
export class Child {
  output = '';
  private exitCode: number | null | undefined;
  private readonly exited: Promise<void>;

  constructor(readonly child: ChildProcess) {
    child.stdout?.on('data', (chunk: Buffer) => this.append(chunk));
    child.stderr?.on('data', (chunk: Buffer) => this.append(chunk));
    this.exited = new Promise((r) => {
      child.on('close', (code) => {
        this.exitCode = code;
        r();
      });
    });
  }

  static start(command: string, args: string[]): Child {
    requirePython();
    return new Child(spawn(command, args, { env: pythonEnv(), stdio: ['ignore', 'pipe', 'pipe'] }));
  }

  get running(): boolean {
    return this.exitCode === undefined;
  }

  /** Resolves to the exit code once the process has exited (and its output is complete). */
  async wait(): Promise<number | null> {
    await this.exited;
    return this.exitCode ?? null;
  }

  /** Polls `url` until it answers 200; fails if the process exits or `timeoutMs` passes. */
  async waitForHttp(url: string, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (!this.running)
        throw new Error(`process exited before ${url} was up:\n${this.output.slice(-8000)}`);
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

  /** SIGTERM, then SIGKILL after 5 s; resolves once the process has exited. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 5000);
    await this.exited;
    clearTimeout(timer);
  }

  private append(chunk: Buffer): void {
    this.output = (this.output + chunk.toString()).slice(-64_000);
  }
}

/** A free TCP port on 127.0.0.1 (bound, then released). */
export async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}
