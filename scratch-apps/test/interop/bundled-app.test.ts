import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FixtureLlm, startFixtureLlm } from '@arclight/test-fixtures';
import { createScratchApp, type ScratchApp } from '@arclight/test-fixtures/scratch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arclightExport, checkExport } from './matrix.js';
import { installDependencies, readmeBlocks, shellLines } from './readme.js';

// An agent shipped as one bundle (esbuild: a serverless function, a container without node_modules). The README's
// two lines still record its LLM calls with token ids: `instrumentOpenAI(OpenAI, …)` patches the `openai` class the
// bundle carries. The `--import @arclight/instrumentation-openai/register` hook cannot see a bundled copy; then the
// run says so when the rollout ends (ARCLIGHT_UNTRACED_LLM_REQUESTS), instead of a store without LLM calls.
const blocks = readmeBlocks('Two lines in an existing agent');
const [install] = shellLines(blocks, 'npm install ');
const program = blocks.find((b) => b.lang === 'ts')?.code ?? '';
const INSTRUMENT_LINE = /^instrumentOpenAI\(OpenAI,.*$/m;

let app: ScratchApp;
let llm: FixtureLlm;
let bare: string;

beforeAll(async () => {
  if (!install || !INSTRUMENT_LINE.test(program)) {
    throw new Error(
      'README two-line section: expected an `npm install` line and an `instrumentOpenAI(OpenAI, …)` line',
    );
  }
  llm = await startFixtureLlm();
  app = await createScratchApp({
    name: 'bundled-app',
    dependencies: { ...installDependencies(install), esbuild: 'latest' },
    files: {
      'main.ts': program,
      // The same agent relying on the import hook instead of the instrumentOpenAI line.
      'hooked.ts': program.replace(INSTRUMENT_LINE, '// traced by --import …/register'),
    },
  });
  for (const entry of ['main', 'hooked']) {
    const built = await app.run('npx', [
      'esbuild',
      `${entry}.ts`,
      '--bundle',
      '--platform=node',
      '--format=esm',
      '--log-level=error',
      `--outfile=dist/${entry}.mjs`,
    ]);
    expect(built.code, built.stderr).toBe(0);
  }
  bare = await mkdtemp(join(tmpdir(), 'arclight-bundle-'));
  await copyFile(join(app.dir, 'dist/main.mjs'), join(bare, 'agent.mjs'));
});

afterAll(async () => {
  await app?.remove();
  await llm?.close();
  if (bare) await rm(bare, { recursive: true, force: true });
});

const env = () => ({ OPENAI_BASE_URL: llm.baseUrl, OPENAI_API_KEY: 'unused' });

describe('an agent bundled with esbuild', () => {
  it('records its LLM calls with token ids from a directory without node_modules', async () => {
    const run = await app.run(process.execPath, ['agent.mjs'], { cwd: bare, env: env() });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toContain('ArclightWarning');
    await copyFile(join(bare, 'arclight.sqlite'), join(app.dir, 'arclight.sqlite'));
    await checkExport(app, { rows: 1, rollouts: 1, agents: ['*'] });
  });

  it('says when the import hook could not trace the bundled openai, naming the fix', async () => {
    const before = llm.requests.length;
    const run = await app.run(
      process.execPath,
      ['--import', '@arclight/instrumentation-openai/register', 'dist/hooked.mjs'],
      { env: env() },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(llm.requests.length).toBe(before + 1);
    expect(run.stderr).toContain('ARCLIGHT_UNTRACED_LLM_REQUESTS');
    expect(run.stderr).toContain('cannot patch a bundled copy');
    expect(run.stderr).toContain(`POST ${llm.baseUrl}/chat/completions`);
    // The export skips that rollout and names the same cause.
    const exported = await arclightExport(app, 'triplets', 'hooked.jsonl');
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout, exported.stdout).toMatch(
      /skipped, no_llm_calls: .*ARCLIGHT_UNTRACED_LLM_REQUESTS/,
    );
  });
});
