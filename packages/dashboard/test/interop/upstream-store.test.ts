import { existsSync } from 'node:fs';
import { LightningStoreClient } from '@arclight/client';
import { type FixtureLlm, roomSelectorResponders, startFixtureLlm } from '@arclight/test-fixtures';
import {
  AGL,
  freePort,
  PYTHON_TIMEOUT_MS,
  PythonProcess,
  requirePython,
} from '@arclight/test-fixtures/python';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAgent, TEST_WORKER } from './agent-runs.js';
import { chromiumPath, closedPort, type StoreProcess, startStore } from './harness.js';

// The dashboard, served by `arclight store`, pointed at upstream's own store (`agl store` of agentlightning 0.3.0,
// started with --cors-origin for the dashboard's origin) that the room-selector agent wrote to over HTTP.
const WAIT = { timeout: 30_000 };
const AGL_MAIN = 'import sys; from agentlightning.cli import main; sys.exit(main())';

let served: StoreProcess;
let agl: PythonProcess;
let aglUrl: string;
let llm: FixtureLlm;
let browser: Browser;
let page: Page;
let api: LightningStoreClient;

beforeAll(async () => {
  const executablePath = chromiumPath();
  requirePython();
  served = await startStore(['--backend', 'memory']);
  const port = await freePort();
  aglUrl = `http://127.0.0.1:${port}`;
  const args = [
    'store',
    '--host',
    '127.0.0.1',
    '--port',
    String(port),
    '--cors-origin',
    served.url,
    '--log-level',
    'WARNING',
  ];
  agl = existsSync(AGL)
    ? PythonProcess.start(args, { command: AGL })
    : PythonProcess.start(['-c', AGL_MAIN, ...args]);
  await agl.waitForHttp(`${aglUrl}/v1/agl/health`, PYTHON_TIMEOUT_MS);
  llm = await startFixtureLlm({ recordings: false, responders: roomSelectorResponders() });
  await runAgent(aglUrl, llm.baseUrl, 3);
  await runAgent(aglUrl, `http://127.0.0.1:${await closedPort()}/v1`, 1, 'gone');
  api = new LightningStoreClient(aglUrl);
  browser = await chromium.launch({
    executablePath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  // Importing agentlightning takes ~20 s of CPU; on a busy 2-core machine that is minutes.
}, 420_000);

afterAll(async () => {
  await browser?.close();
  await api?.close();
  await llm?.close();
  await agl?.stop();
  await served?.stop();
});

describe("the dashboard on upstream's agl store", () => {
  it('lists its rollouts, shows a trace with token ids and a failure, its resources and worker', async () => {
    const rollouts = await api.queryRollouts({});
    expect(rollouts.total).toBe(4);
    await page.goto(`${served.url}/?store=${encodeURIComponent(aglUrl)}#/rollouts`);
    await expect
      .poll(() => page.getByTestId('rollout-count').textContent(), WAIT)
      .toContain('4 shown of 4');
    expect(await page.locator('tr[data-status=failed]').count()).toBe(1);

    const ok = rollouts.items.find((r) => r.status === 'succeeded')!;
    await page.goto(
      `${served.url}/?store=${encodeURIComponent(aglUrl)}#/rollouts/${ok.rollout_id}`,
    );
    const waterfall = page.getByTestId('waterfall');
    await expect.poll(() => waterfall.locator('[data-kind=llm]').count(), WAIT).toBe(2);
    await waterfall.locator('[data-kind=llm]').first().click();
    expect(await page.getByTestId('token-ids').textContent()).toMatch(
      /prompt \d+ ids · response \d+ ids/,
    );
    expect(await page.getByTestId('triplet-row').count()).toBe(2);

    await page.goto(`${served.url}/?store=${encodeURIComponent(aglUrl)}#/rollouts?status=failed`);
    await page.locator('tr[data-status=failed] a').first().click();
    await page.getByTestId('goto-exception').first().click();
    await expect
      .poll(() => page.getByTestId('span-details').getAttribute('data-kind'), WAIT)
      .toBe('exception');

    await page.goto(`${served.url}/?store=${encodeURIComponent(aglUrl)}#/progress`);
    await expect
      .poll(() => page.getByTestId('progress-totals').textContent(), WAIT)
      .toContain('25.0 %failure rate');
    await page.goto(`${served.url}/?store=${encodeURIComponent(aglUrl)}#/resources`);
    const resources = await api.queryResources({});
    await expect
      .poll(() => page.getByTestId('resources-table').locator('tbody tr').count(), WAIT)
      .toBe(resources.total);
    await page.goto(`${served.url}/?store=${encodeURIComponent(aglUrl)}#/runners`);
    await expect
      .poll(() => page.getByTestId('workers-table').textContent(), WAIT)
      .toContain(TEST_WORKER);
  });
});
