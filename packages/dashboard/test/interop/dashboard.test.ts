import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LightningStoreClient } from '@arclight/client';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFailingRollouts, TEST_WORKER } from './agent-runs.js';
import {
  chromiumPath,
  type DemoRun,
  runRoomSelector,
  type StoreProcess,
  startStore,
} from './harness.js';

// One real run: the room-selector example (APO, 4 runners, SQLite) into a temp store, then that store served by
// `arclight store --db`, plus a few rollouts of the same agent whose model server is gone (they fail), and the
// dashboard opened in Debian's Chromium. Screenshots go to a temp folder, or replace the README's ones under
// docs/screenshots when ARCLIGHT_UPDATE_SCREENSHOTS=1 (`npm run screenshots`), so a test run leaves the tree clean.
const SHOTS =
  process.env.ARCLIGHT_UPDATE_SCREENSHOTS === '1'
    ? fileURLToPath(new URL('../../docs/screenshots/', import.meta.url))
    : `${mkdtempSync(join(tmpdir(), 'arclight-dashboard-shots-'))}/`;
const WAIT = { timeout: 30_000 };

let run: DemoRun;
let store: StoreProcess;
let browser: Browser;
let page: Page;
let failed: string[];
let api: LightningStoreClient;

beforeAll(async () => {
  const executablePath = chromiumPath();
  run = await runRoomSelector();
  store = await startStore(['--db', run.db]);
  failed = await runFailingRollouts(store.url, 2);
  api = new LightningStoreClient(store.url);
  browser = await chromium.launch({
    executablePath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  // Poll every second so the live-update test does not wait long.
  await page.addInitScript(() => {
    if (!localStorage.getItem('arclight.dashboard.settings')) {
      localStorage.setItem(
        'arclight.dashboard.settings',
        JSON.stringify({ refreshSeconds: 1, theme: 'light' }),
      );
    }
  });
  mkdirSync(SHOTS, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await api?.close();
  await store?.stop();
});

const shot = (name: string, fullPage = true) =>
  page.screenshot({ path: `${SHOTS}${name}.png`, fullPage });
const rows = (selector = '[data-testid=rollouts-table] > tbody > tr[data-status]') =>
  page.locator(selector);

describe('the dashboard on a room-selector run', () => {
  it('is served by arclight store at / and the run prints how to open it', async () => {
    expect(store.stdout()).toContain(`— dashboard: ${store.url}/`);
    expect(run.stdout).toContain(`npx arclight store --db ${run.db}`);
    expect(run.stdout).toContain('http://127.0.0.1:4747/');
    const res = await fetch(`${store.url}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
  });

  it('Rollouts: lists every rollout of the run with attempts, and the filters narrow it', async () => {
    const total = (await api.queryRollouts({})).total;
    expect(total).toBe(run.summary.rollouts + failed.length);
    await page.goto(`${store.url}/`);
    await expect.poll(() => rows().count(), WAIT).toBe(Math.min(total, 100));
    await expect
      .poll(() => page.getByTestId('rollout-count').textContent(), WAIT)
      .toContain(`of ${total} in the store`);

    // Status: only the failed rollouts.
    await page.getByLabel('failed', { exact: true }).check();
    await expect.poll(() => rows().count(), WAIT).toBe(failed.length);
    expect(
      await rows().evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-status'))),
    ).toEqual(failed.map(() => 'failed'));
    await page.getByLabel('failed', { exact: true }).uncheck();

    // Mode: validation rollouts only (APO scores candidates on the validation set).
    const val = (await api.queryRollouts({})).items.filter((r) => r.mode === 'val').length;
    await page.locator('select[name=mode]').selectOption('val');
    await expect
      .poll(() => page.getByTestId('rollout-count').textContent(), WAIT)
      .toContain(`${val} shown`);
    await page.locator('select[name=mode]').selectOption('');

    // Resources version: v0 (the seed prompt).
    const v0 = (await api.queryRollouts({})).items.filter((r) => r.resources_id === 'v0').length;
    await page.locator('select[name=resources]').selectOption('v0');
    await expect
      .poll(() => page.getByTestId('rollout-count').textContent(), WAIT)
      .toContain(`${v0} shown`);
    expect(await rows().evaluateAll((trs) => trs.map((tr) => tr.children[4]?.textContent))).toEqual(
      Array(Math.min(v0, 100)).fill('v0'),
    );
    await page.locator('select[name=resources]').selectOption('');

    // Time: everything started within the last hour.
    await page.locator('select[name=time]').selectOption('1h');
    await expect
      .poll(() => page.getByTestId('rollout-count').textContent(), WAIT)
      .toContain(`${total} shown`);
    await page.locator('select[name=time]').selectOption('');

    // Attempts of the newest rollout: status, worker and duration.
    await rows().first().getByRole('button').click();
    const attempts = page.getByTestId('attempts').first();
    await expect.poll(() => attempts.locator('tbody tr').count(), WAIT).toBeGreaterThan(0);
    const cells = await attempts.locator('tbody tr').first().locator('td').allTextContents();
    expect(cells[2]).toBe('failed');
    expect(cells[3]).toBe(TEST_WORKER);
    expect(cells[5]).toMatch(/\d+(\.\d+)? (ms|s)/);
    expect(cells[6]).toMatch(/Error/);
    await shot('rollouts', false);
  });

  it('A failed rollout: from the list to the exception of its LLM call', async () => {
    await page.goto(`${store.url}/#/rollouts?status=failed`);
    await expect.poll(() => rows().count(), WAIT).toBe(failed.length);
    await rows().first().locator('a').first().click();
    const error = page.getByTestId('attempt-error');
    await error.waitFor(WAIT);
    expect(await error.textContent()).toMatch(/The agent raised \w*Error/);
    await page.getByTestId('goto-exception').first().click();
    const details = page.getByTestId('span-details');
    await expect.poll(() => details.getAttribute('data-kind'), WAIT).toBe('exception');
    const exception = await page.getByTestId('exception').textContent();
    expect(exception).toMatch(/Connection error|ECONNREFUSED|fetch failed/i);
    expect(await page.locator('.wf-row.selected').getAttribute('data-kind')).toBe('exception');
    await shot('rollout-failed');
  });

  it('A rollout: trace waterfall, an LLM call with messages, tool call and token ids, its triplets', async () => {
    const rollout = (await api.queryRollouts({ status_in: ['succeeded'] })).items.at(-1)!;
    await page.goto(`${store.url}/#/rollouts/${rollout.rollout_id}`);
    const waterfall = page.getByTestId('waterfall');
    await expect.poll(() => waterfall.locator('[data-kind=llm]').count(), WAIT).toBe(2);
    expect(await waterfall.locator('[data-kind=reward]').count()).toBe(1);
    await waterfall.locator('[data-kind=llm]').first().click();
    const call = page.getByTestId('llm-call');
    await call.waitFor(WAIT);
    expect(await page.getByTestId('prompt-messages').locator('li').count()).toBe(2);
    expect(await page.getByTestId('tool-call').first().textContent()).toContain(
      'get_rooms_and_availability',
    );
    expect(await page.getByTestId('token-ids').textContent()).toMatch(
      /prompt \d+ ids · response \d+ ids/,
    );
    expect(await page.getByTestId('sampling').textContent()).toContain('temperature=0');
    expect(await page.getByTestId('token-counts').textContent()).toMatch(/prompt \d+/);
    const triplets = page.getByTestId('triplet-row');
    expect(await triplets.count()).toBe(2);
    expect(await triplets.last().locator('td').nth(6).textContent()).toMatch(/^[01]$/);
    expect(await triplets.first().getByTestId('left-out').textContent()).toContain(
      'every export format takes it',
    );
    await shot('rollout');
  });

  it('Training progress: reward over time and per version, throughput and failure rate', async () => {
    await page.goto(`${store.url}/#/progress`);
    const totals = page.getByTestId('progress-totals');
    await totals.waitFor(WAIT);
    await expect
      .poll(() => totals.textContent(), WAIT)
      .toContain(`${run.summary.rollouts + failed.length}rollouts`);
    const rate = (failed.length / (run.summary.rollouts + failed.length)) * 100;
    expect(await totals.textContent()).toContain(`${rate.toFixed(1)} %failure rate`);
    for (const id of ['chart-reward', 'chart-versions', 'chart-throughput']) {
      await page.getByTestId(id).locator('canvas').waitFor(WAIT);
    }
    const versions = await page
      .getByTestId('versions-table')
      .locator('tbody tr td:first-child')
      .allTextContents();
    for (const point of run.summary.curve) expect(versions).toContain(point.version);
    await shot('progress');
  });

  it('Resources: versions, the prompt diff between two, the best version', async () => {
    const resources = await api.queryResources({});
    await page.goto(`${store.url}/#/resources`);
    const table = page.getByTestId('resources-table');
    await expect.poll(() => table.locator('tbody tr').count(), WAIT).toBe(resources.total);
    expect(await page.getByTestId('best-version').textContent()).toMatch(
      /Best version: v\d+ — score \d/,
    );
    const best = run.summary.best.version;
    await page.goto(`${store.url}/#/resources?version=${best}&base=v0`);
    const diff = page.getByTestId('prompt-diff');
    await diff.waitFor(WAIT);
    // APO only appends rules to the seed: the best prompt's diff against v0 is insertions only.
    expect(await diff.locator('ins').count()).toBeGreaterThan(0);
    expect(await diff.locator('ins').allTextContents()).toEqual(
      expect.arrayContaining([expect.stringMatching(/\S/)]),
    );
    await shot('resources');
  });

  it('Runners: the run’s workers with status and heartbeats', async () => {
    const workers = await api.queryWorkers({});
    await page.goto(`${store.url}/#/runners`);
    const table = page.getByTestId('workers-table');
    await expect.poll(() => table.locator('tbody tr').count(), WAIT).toBe(workers.total);
    const names = await table.locator('tbody tr td:first-child').allTextContents();
    expect(names.sort()).toEqual(workers.items.map((w) => w.worker_id).sort());
    expect(names.length).toBeGreaterThanOrEqual(4);
    await shot('runners');
  });

  it('Live updates: a rollout enqueued while the page is open appears without a reload', async () => {
    await page.goto(`${store.url}/#/rollouts?status=queuing`);
    await page.getByTestId('rollouts-table').waitFor(WAIT);
    const before = await rows().count();
    const queued = await api.enqueueRollout({
      input: { note: 'added while the page is open' },
      mode: 'test',
    });
    await expect.poll(() => rows().count(), WAIT).toBe(before + 1);
    expect(await rows().first().textContent()).toContain(queued.rollout_id);
  });

  it('Dark theme', async () => {
    await page.goto(`${store.url}/#/progress`);
    await page.getByTestId('progress-totals').waitFor(WAIT);
    await page.getByTestId('theme-toggle').click();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await page.getByTestId('chart-reward').locator('canvas').waitFor(WAIT);
    await shot('progress-dark');
    await page.getByTestId('theme-toggle').click();
  });
});

describe('arclight store options', () => {
  it('--token: the page loads, the data needs the token, set in Settings', async () => {
    const secured = await startStore(['--backend', 'memory', '--token', 's3cret']);
    const context = await browser.newContext();
    try {
      const p = await context.newPage();
      await p.goto(`${secured.url}/`);
      await p.getByRole('alert').waitFor(WAIT);
      expect(await p.getByRole('alert').textContent()).toContain('requires a token');
      await p.goto(`${secured.url}/#/settings`);
      await p.locator('input[name=token]').fill('s3cret');
      await p.getByRole('button', { name: 'Test connection' }).click();
      await expect
        .poll(() => p.getByTestId('settings-status').textContent(), WAIT)
        .toContain('Connected');
      await p.screenshot({ path: `${SHOTS}settings.png` });
      await p.getByRole('button', { name: 'Save' }).click();
      await p.goto(`${secured.url}/#/rollouts`);
      await expect
        .poll(() => p.getByTestId('rollout-count').textContent(), WAIT)
        .toContain('0 shown of 0');
    } finally {
      await context.close();
      await secured.stop();
    }
  });

  it('--no-dashboard: nothing at /, the API as before', async () => {
    const bare = await startStore(['--backend', 'memory', '--no-dashboard']);
    try {
      expect(bare.stdout()).not.toContain('dashboard');
      expect((await fetch(`${bare.url}/`)).status).toBe(404);
      expect((await fetch(`${bare.url}/v1/agl/health`)).status).toBe(200);
    } finally {
      await bare.stop();
    }
  });
});
