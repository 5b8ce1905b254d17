import { resolve } from 'node:path';
import { PYTHON_SCRIPTS, PYTHON_TIMEOUT_MS, PythonProcess } from './python.js';

/**
 * Fresh upstream (agentlightning 0.3.0) LightningStoreServers on demand, from one long-lived Python process
 * (`test/python/upstream_store_farm.py`), so the import cost of agentlightning is paid once per test file.
 */
export class UpstreamStoreFarm {
  private constructor(
    private readonly process: PythonProcess,
    private readonly control: string,
  ) {}

  static async start(): Promise<UpstreamStoreFarm> {
    const process = PythonProcess.start([resolve(PYTHON_SCRIPTS, 'upstream_store_farm.py')]);
    const deadline = Date.now() + PYTHON_TIMEOUT_MS;
    let port: string | undefined;
    while (!port) {
      port = /READY (\d+)/.exec(process.output)?.[1];
      if (port) break;
      if (!process.running)
        throw new Error(`upstream_store_farm.py exited:\n${process.output.slice(-8000)}`);
      if (Date.now() > deadline)
        throw new Error(`upstream_store_farm.py did not start:\n${process.output}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    return new UpstreamStoreFarm(process, `http://127.0.0.1:${port}`);
  }

  /** Starts a fresh upstream InMemoryLightningStore behind upstream's LightningStoreServer; resolves to its URL. */
  async newStore(scanDebounceSeconds = 0): Promise<string> {
    const response = await fetch(
      `${this.control}/stores?scan_debounce_seconds=${scanDebounceSeconds}`,
      {
        method: 'POST',
      },
    );
    const body = (await response.json()) as { url?: string; detail?: string };
    if (response.status !== 201 || !body.url) {
      throw new Error(
        `farm could not start a store: ${body.detail ?? response.status}\n${this.process.output.slice(-4000)}`,
      );
    }
    return body.url;
  }

  async stopStore(url: string): Promise<void> {
    const port = new URL(url).port;
    await fetch(`${this.control}/stores/${port}/stop`, { method: 'POST' });
  }

  async stop(): Promise<void> {
    await this.process.stop();
  }
}
