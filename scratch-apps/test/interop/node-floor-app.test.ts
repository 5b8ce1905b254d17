import { delimiter } from 'node:path';
import { type FixtureLlm, startFixtureLlm } from '@arclight/test-fixtures';
import {
  createScratchApp,
  floorNodeVersion,
  nodeReleaseBin,
  type ScratchApp,
} from '@arclight/test-fixtures/scratch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkExport } from './matrix.js';
import { installDependencies, readmeBlocks, shellLines } from './readme.js';

// The README's two lines on the oldest Node the packages accept (engines.node, 22.13.0): installed from the npm-pack
// tarballs like any app, run with that Node (its TypeScript through --experimental-strip-types, which 22.13 needs),
// and `npx arclight export` on it too — node:sqlite, node:zlib and the module hooks there lack parts of Node 24.
const blocks = readmeBlocks('Two lines in an existing agent');
const [install] = shellLines(blocks, 'npm install ');
const program = blocks.find((b) => b.lang === 'ts')?.code;
const version = floorNodeVersion();

let app: ScratchApp;
let llm: FixtureLlm;
let env: Record<string, string>;

beforeAll(async () => {
  if (!install || !program) {
    throw new Error('README two-line section: expected an `npm install` line and a ts block');
  }
  const bin = nodeReleaseBin(version);
  llm = await startFixtureLlm();
  app = await createScratchApp({
    name: 'node-floor-app',
    dependencies: installDependencies(install),
    files: { 'main.ts': program },
  });
  env = {
    PATH: `${bin}${delimiter}${process.env.PATH ?? ''}`,
    OPENAI_BASE_URL: llm.baseUrl,
    OPENAI_API_KEY: 'unused',
  };
});

afterAll(async () => {
  await app?.remove();
  await llm?.close();
});

describe(`README: two lines on Node ${version} (engines.node floor)`, () => {
  it('records a rollout with token ids and exports it, CLI included, on that Node', async () => {
    const node = await app.run('node', ['--version'], { env });
    expect(node.stdout.trim()).toBe(`v${version}`);
    const run = await app.run('node', ['--experimental-strip-types', 'main.ts'], { env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toContain('ArclightWarning');
    await checkExport(app, { rows: 1, rollouts: 1, agents: ['*'], env });
  });
});
