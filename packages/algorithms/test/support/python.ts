import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Upstream agentlightning 0.3.0 from the repo's venv (`bash scripts/python-env.sh`). Never skipped silently:
 * without the venv the test fails, unless ARCLIGHT_SKIP_PYTHON=1 is set outside CI.
 */
const here = dirname(fileURLToPath(import.meta.url));
const VENV_BIN = resolve(here, '../../../../.venv/bin');
export const PYTHON = process.env.ARCLIGHT_PYTHON ?? resolve(VENV_BIN, 'python');
export const AGL = resolve(dirname(PYTHON), 'agl');
export const PYTHON_SCRIPTS = resolve(here, '../python');
export const SKIP_PYTHON = process.env.ARCLIGHT_SKIP_PYTHON === '1' && !process.env.CI;

export function requirePython(): void {
  if (!existsSync(PYTHON) || !existsSync(AGL)) {
    throw new Error(
      `Python venv with agentlightning not found (${PYTHON}, ${AGL}). Run \`bash scripts/python-env.sh\` ` +
        '(or set ARCLIGHT_SKIP_PYTHON=1 to skip the Python interop test locally).',
    );
  }
}

/** A child process whose output is kept for diagnostics. */
export class Child {
  output = '';
  private code: number | null | undefined;
  private readonly exited: Promise<void>;

  private constructor(private readonly child: ChildProcess) {
    const append = (chunk: Buffer) => {
      this.output = (this.output + chunk.toString()).slice(-64_000);
    };
    child.stdout?.on('data', append);
    child.stderr?.on('data', append);
    this.exited = new Promise((r) =>
      child.on('close', (code) => {
        this.code = code;
        r();
      }),
    );
  }

  static start(command: string, args: string[]): Child {
    requirePython();
    return new Child(
      spawn(command, args, {
        env: {
          ...process.env,
          LITELLM_LOCAL_MODEL_COST_MAP: 'True',
          PYTHONUNBUFFERED: '1',
          AGL_LOG_LEVEL: 'WARNING',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    );
  }

  get running(): boolean {
    return this.code === undefined;
  }

  async wait(): Promise<number | null> {
    await this.exited;
    return this.code ?? null;
  }

  /** Polls `url` until it answers 200; fails if the process exits or `timeoutMs` passes. */
  async waitForHttp(url: string, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (!this.running) throw new Error(`process exited before ${url} was up:\n${this.output}`);
      try {
        if ((await fetch(url, { signal: AbortSignal.timeout(1000) })).status === 200) return;
      } catch {
        // not up yet
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new Error(`${url} did not come up within ${timeoutMs} ms:\n${this.output}`);
  }

  /** SIGTERM, then SIGKILL after 5 s. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 5000);
    await this.exited;
    clearTimeout(timer);
  }
}

export async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

/**
 * A stand-in for upstream's LLMProxy: accepts `/rollout/{rollout}/attempt/{attempt}[/v1]/<path>`, records the
 * pair and forwards the request to `<target>/<path>` (an OpenAI-compatible base URL ending in `/v1`).
 */
export async function startRoutingProxy(target: string): Promise<{
  url: string;
  routed: Array<{ rollout_id: string; attempt_id: string; path: string }>;
  close(): Promise<void>;
}> {
  const routed: Array<{ rollout_id: string; attempt_id: string; path: string }> = [];
  const server: Server = createServer((req, res) => {
    const match = /^\/rollout\/([^/]+)\/attempt\/([^/]+)(?:\/v1)?(\/.*)$/.exec(req.url ?? '');
    if (!match) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `not a rollout-scoped path: ${req.url}` } }));
      return;
    }
    routed.push({ rollout_id: match[1]!, attempt_id: match[2]!, path: match[3]! });
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const upstream = await fetch(`${target}${match[3]}`, {
        method: req.method,
        headers: { 'content-type': req.headers['content-type'] ?? 'application/json' },
        body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
      });
      res.writeHead(upstream.status, {
        'content-type': upstream.headers.get('content-type') ?? '',
      });
      res.end(Buffer.from(await upstream.arrayBuffer()));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    routed,
    close: () => new Promise((r) => server.close(() => r())),
  };
}
