import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createScratchApp, type ScratchApp, WORKSPACE } from '@arclight/test-fixtures/scratch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// A TypeScript app that type-checks its dependencies' declarations too (`strict`, `skipLibCheck: false`,
// `nodenext`): every entry point of every published @arclight package, as installed from the npm-pack tarballs,
// must compile with the TypeScript versions users have — 5.9 and the latest — and nothing the declarations
// reference may be missing from the app (e.g. `pg`'s types behind @arclight/store-postgres's).
const packagesDir = fileURLToPath(new URL('../../../packages/', import.meta.url));
const entryPoints = readdirSync(packagesDir).flatMap((dir) => {
  const meta = JSON.parse(readFileSync(join(packagesDir, dir, 'package.json'), 'utf8')) as {
    name: string;
    private?: boolean;
    exports?: Record<string, unknown>;
  };
  if (meta.private) return [];
  return Object.keys(meta.exports ?? { '.': null }).map((key) =>
    key === '.' ? meta.name : `${meta.name}/${key.slice(2)}`,
  );
});
const packages = [...new Set(entryPoints.map((entry) => entry.split('/').slice(0, 2).join('/')))];

const program = [
  ...entryPoints.map((entry, i) => `import * as m${i} from '${entry}';`),
  `console.log([${entryPoints.map((_, i) => `m${i}`).join(', ')}].length);`,
  '',
].join('\n');

const tsconfig = {
  compilerOptions: {
    target: 'es2023',
    module: 'nodenext',
    moduleResolution: 'nodenext',
    strict: true,
    skipLibCheck: false,
    noEmit: true,
  },
  files: ['main.ts'],
};

let app: ScratchApp;

beforeAll(async () => {
  app = await createScratchApp({
    name: 'typescript-app',
    dependencies: {
      ...Object.fromEntries(packages.map((name) => [name, WORKSPACE])),
      typescript: '~5.9.3',
      'typescript-latest': 'npm:typescript@latest',
      '@types/node': '^24.0.0',
      // `ai`'s own declarations (@ai-sdk/provider) import `json-schema`: every `ai` user with skipLibCheck off
      // needs its types, with or without Arclight.
      '@types/json-schema': '^7.0.15',
      // @arclight/store/testing's optional peer, for the app that imports it.
      vitest: '^5.1.1',
    },
    files: { 'main.ts': program, 'tsconfig.json': JSON.stringify(tsconfig, null, 2) },
  });
});

afterAll(async () => {
  await app?.remove();
});

describe('a strict TypeScript app (skipLibCheck off) importing every Arclight entry point', () => {
  it('type-checks with TypeScript 5.9', async () => {
    const tsc = await app.run('npx', ['tsc', '-p', '.']);
    expect(tsc.code, tsc.stdout + tsc.stderr).toBe(0);
  });

  it('type-checks with the latest TypeScript', async () => {
    const tsc = await app.node('node_modules/typescript-latest/bin/tsc', ['-p', '.']);
    expect(tsc.code, tsc.stdout + tsc.stderr).toBe(0);
  });
});
