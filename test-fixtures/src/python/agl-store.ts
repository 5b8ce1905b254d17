// Upstream's own store server (`agl store`, agentlightning 0.3.0) on a free port.
import { existsSync } from 'node:fs';
import { freePort } from './free-port.js';
import { PythonProcess } from './process.js';
import { AGL, PYTHON_TIMEOUT_MS, requirePython } from './venv.js';

export interface AglStoreOptions {
  /** How long to wait for `/v1/agl/health` (default `PYTHON_TIMEOUT_MS`). */
  timeoutMs?: number;
  /** `--log-level` (default `WARNING`). */
  logLevel?: string;
}

export interface AglStore {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  readonly process: PythonProcess;
  stop(): Promise<void>;
}

/** The `agl` entry point, for venvs whose scripts directory lacks the `agl` command. */
const AGL_MAIN = 'import sys; from agentlightning.cli import main; sys.exit(main())';

/** Starts `agl store` and resolves once it answers `/v1/agl/health` (it is stopped again if it does not). */
export async function startAglStore(options: AglStoreOptions = {}): Promise<AglStore> {
  requirePython();
  const port = await freePort();
  const args = [
    'store',
    '--host',
    '127.0.0.1',
    '--port',
    String(port),
    '--log-level',
    options.logLevel ?? 'WARNING',
  ];
  const child = existsSync(AGL)
    ? PythonProcess.start(args, { command: AGL })
    : PythonProcess.start(['-c', AGL_MAIN, ...args]);
  const url = `http://127.0.0.1:${port}`;
  try {
    await child.waitForHttp(`${url}/v1/agl/health`, options.timeoutMs ?? PYTHON_TIMEOUT_MS);
  } catch (error) {
    await child.stop();
    throw error;
  }
  return { url, port, process: child, stop: () => child.stop() };
}
