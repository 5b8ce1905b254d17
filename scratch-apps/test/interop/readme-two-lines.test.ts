import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type FixtureLlm, startFixtureLlm } from '@arclight/test-fixtures';
import { createScratchApp, type ScratchApp } from '@arclight/test-fixtures/scratch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkExport } from './matrix.js';
import { installDependencies, readmeBlocks, shellLines } from './readme.js';

// The root README's "Two lines in an existing agent", followed literally: its `npm install` line (the
// @arclight packages from their npm-pack tarballs, the rest from the registry), its TypeScript as the app's
// main.ts (run with Node's type stripping), its `npx arclight export` line — against the fixture LLM server.
// Installed once by npm and once by pnpm (whose strict node_modules has no hoisted packages to lean on).
const blocks = readmeBlocks('Two lines in an existing agent');
const [install] = shellLines(blocks, 'npm install ');
const exportLines = shellLines(blocks, 'npx arclight export ');
const program = blocks.find((b) => b.lang === 'ts')?.code;

describe.each(['npm', 'pnpm'] as const)(
  'README: two lines in an existing agent (%s)',
  (manager) => {
    let app: ScratchApp;
    let llm: FixtureLlm;

    beforeAll(async () => {
      if (!install || !program || exportLines.length === 0) {
        throw new Error(
          'README two-line section: expected an `npm install` line, a ts block and an export line',
        );
      }
      llm = await startFixtureLlm();
      app = await createScratchApp({
        name: `readme-two-lines-${manager}`,
        dependencies: installDependencies(install),
        files: { 'main.ts': program },
        packageManager: manager,
      });
    });

    afterAll(async () => {
      await app?.remove();
      await llm?.close();
    });

    it('records a finished rollout and exports it as verl Parquet', async () => {
      const env = { OPENAI_BASE_URL: llm.baseUrl, OPENAI_API_KEY: 'unused' };
      const run = await app.node('main.ts', [], { env });
      expect(run.stderr).not.toContain('ArclightWarning');
      expect(run.code, run.stderr).toBe(0);
      expect(llm.requests.filter((r) => r.path.endsWith('/chat/completions'))).toHaveLength(1);

      for (const line of exportLines) {
        const [command, ...args] = line.split(/\s+/);
        const exported = await app.run(command as string, args, { env });
        expect(exported.code, exported.stderr).toBe(0);
        const rows = Number(/wrote (\d+) rows?/.exec(exported.stdout)?.[1] ?? 'NaN');
        expect(rows, exported.stdout).toBeGreaterThan(0);
      }
      const parquet = readFileSync(join(app.dir, 'data/verl.parquet'));
      expect(parquet.subarray(0, 4).toString()).toBe('PAR1');

      // What the Parquet holds, in the readable format: one triplet with token ids, the run's reward on the
      // (last) LLM call.
      await checkExport(app, { rows: 1, rollouts: 1, agents: ['*'] });
    });
  },
);
