// `node scripts/test-on-node.mjs floor|latest` (`npm run test:node-floor`, `npm run test:node-latest`): the unit
// tests (no `test/interop/`) of every workspace on another Node.js than the Node 24 the other scripts use —
// `floor`, the oldest the packages accept (`engines.node` of @arclight/core, e.g. ">=22.13" → 22.13.0): node:sqlite,
// node:zlib and friends grew since (22.13 has no `DatabaseSync.isTransaction`, no numbered `?NNN` binding, no
// zstd); `latest`, the newest Node release on the npm registry. That Node comes from the registry's `node` package,
// kept in node_modules/.cache/node-<version> (inside the clone like the Node 24 the scripts use: tests run it as an
// unprivileged user too, who cannot enter ~root/.cache). Needs built packages. Exits non-zero on any failure.
import { spawnSync } from 'node:child_process';
import { globSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { floorNodeVersion, nodeReleaseBin } from '@arclight/test-fixtures/scratch';

const root = join(import.meta.dirname, '..');
const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'));

const which = process.argv[2] ?? 'floor';
const range = readJson(join(root, 'packages/core/package.json')).engines.node;
let version;
if (which === 'floor') {
  version = floorNodeVersion(root);
} else if (which === 'latest') {
  const view = spawnSync('npm', ['view', 'node@latest', 'version'], { encoding: 'utf8' });
  version = view.stdout.trim();
  if (view.status !== 0 || !/^\d+\.\d+\.\d+$/.test(version)) {
    throw new Error(`test-on-node: npm view node@latest failed: ${view.stderr}`);
  }
} else {
  throw new Error(`test-on-node: expected floor or latest, got ${which}`);
}

const node = join(nodeReleaseBin(version, root), 'node');
const actual = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
console.log(`test-on-node: unit tests on ${actual} (${which}; engines.node "${range}")`);

const vitest = join(root, 'node_modules/vitest/vitest.mjs');
const dirs = readJson(join(root, 'package.json'))
  .workspaces.flatMap((pattern) => globSync(pattern, { cwd: root }))
  .filter((dir) => readJson(join(root, dir, 'package.json')).scripts?.test?.startsWith('vitest'))
  .sort();
const failed = [];
for (const dir of dirs) {
  const run = spawnSync(
    node,
    [vitest, 'run', '--exclude', '**/test/interop/**', '--passWithNoTests'],
    { cwd: join(root, dir), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  const output = stripVTControlCharacters(`${run.stdout}${run.stderr}`);
  const summary = /^\s*Tests\s+(.*)$/m.exec(output)?.[1] ?? 'no tests';
  console.log(`  ${run.status === 0 ? 'ok  ' : 'FAIL'} ${dir}: ${summary}`);
  if (run.status !== 0) {
    failed.push(dir);
    console.log(
      output
        .split('\n')
        .filter((line) => /FAIL|Error|expected/.test(line))
        .slice(0, 30)
        .join('\n'),
    );
  }
}
if (failed.length > 0) {
  console.error(`test-on-node: failures on ${actual} in ${failed.join(', ')}`);
  process.exit(1);
}
