import { createScratchApp, type ScratchApp, WORKSPACE } from '@arclight/test-fixtures/scratch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The packages as a user's app gets them: npm-packed tarballs installed into a fresh app next to the versions
// the READMEs state — `openai`, and `@opentelemetry/api ^1.9.0` (the instrumentations' peer range).
const ARCLIGHT = [
  '@arclight/adapter',
  '@arclight/algorithms',
  '@arclight/cli',
  '@arclight/client',
  '@arclight/core',
  '@arclight/export',
  '@arclight/instrumentation-openai',
  '@arclight/otel',
  '@arclight/runner',
  '@arclight/server',
  '@arclight/store',
  '@arclight/trainer',
];

const IMPORT_ALL = `
const names = ${JSON.stringify(ARCLIGHT)};
for (const name of names) await import(name);
const { InMemoryLightningStore } = await import('@arclight/store');
const store = new InMemoryLightningStore();
const started = await store.startRollout({ input: 'x' });
console.log(JSON.stringify({ imported: names.length, status: started.status }));
await store.close();
`;

// A CommonJS app (or TypeScript compiled to CommonJS) loads the ESM packages with require(): Node >= 22.12.
const REQUIRE_ALL = `
const names = ${JSON.stringify(ARCLIGHT)};
for (const name of names) require(name);
const { InMemoryLightningStore } = require('@arclight/store');
new InMemoryLightningStore()
  .startRollout({ input: 'x' })
  .then((started) => console.log(JSON.stringify({ required: names.length, status: started.status })));
`;

let app: ScratchApp;

beforeAll(async () => {
  app = await createScratchApp({
    name: 'install',
    dependencies: {
      ...Object.fromEntries(ARCLIGHT.map((name) => [name, WORKSPACE])),
      openai: '^7.0.0',
      '@opentelemetry/api': '^1.9.0',
    },
    files: { 'import-all.mjs': IMPORT_ALL, 'require-all.cjs': REQUIRE_ALL },
  });
});

afterAll(async () => {
  await app?.remove();
});

describe('installing the npm-packed packages into a fresh app', () => {
  it('resolves every peer range without conflicts or warnings', async () => {
    const output = `${app.installOutput.stdout}\n${app.installOutput.stderr}`;
    expect(output).not.toMatch(/ERESOLVE|EBADENGINE|peer dep|invalid/i);
    const ls = await app.run('npm', ['ls', '--all', '--json']);
    expect(ls.code, ls.stdout.slice(0, 2000) + ls.stderr).toBe(0);
    expect(JSON.parse(ls.stdout).problems ?? []).toEqual([]);
  });

  it('has one copy of @opentelemetry/api, so every package shares the context and the global provider', async () => {
    const ls = await app.run('npm', ['ls', '--all', '--parseable', '@opentelemetry/api']);
    const copies = new Set(ls.stdout.trim().split('\n').filter(Boolean));
    expect([...copies]).toEqual([`${app.dir}/node_modules/@opentelemetry/api`]);
  });

  it('imports every package and runs a store', async () => {
    const run = await app.node('import-all.mjs');
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ imported: ARCLIGHT.length, status: 'preparing' });
  });

  it('loads every package with require() from CommonJS and runs a store', async () => {
    const run = await app.node('require-all.cjs');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toMatch(/ERR_REQUIRE|ExperimentalWarning/);
    expect(JSON.parse(run.stdout)).toEqual({ required: ARCLIGHT.length, status: 'preparing' });
  });

  it('links the arclight command', async () => {
    const help = await app.run('npx', ['arclight', '--help']);
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toContain('export');
  });
});
