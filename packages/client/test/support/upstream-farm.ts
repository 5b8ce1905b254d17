import { fileURLToPath } from 'node:url';
import { PythonProcess } from '@arclight/test-fixtures/python';

const FARM = fileURLToPath(new URL('../interop/python/upstream_store_farm.py', import.meta.url));

/**
 * Fresh upstream (agentlightning 0.3.0) LightningStoreServers on demand, from one long-lived Python process
 * (`test/interop/python/upstream_store_farm.py`), so the import cost of agentlightning is paid once per test file.
 */
export class UpstreamStoreFarm {
  private constructor(
    private readonly process: PythonProcess,
    private readonly control: string,
  ) {}

  static async start(): Promise<UpstreamStoreFarm> {
    const process = PythonProcess.start([FARM]);
    try {
      const [, port] = await process.waitForOutput(/READY (\d+)/);
      return new UpstreamStoreFarm(process, `http://127.0.0.1:${port}`);
    } catch (error) {
      await process.stop();
      throw error;
    }
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
