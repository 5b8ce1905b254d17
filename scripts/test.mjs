// `npm test`: runs every workspace's tests through turbo, then adds up the vitest JSON reports and prints
// one closing line ("N passed, N failed"). Exits non-zero if anything failed or nothing ran.
// `npm run test:unit` (`--unit`): the same without the interop tests (`test/interop/` folders: Python, PostgreSQL,
// Chromium, scratch apps), so it runs on a machine without Python.
import { spawnSync } from 'node:child_process';
import { existsSync, globSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const { workspaces } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const reports = workspaces
  .flatMap((pattern) => globSync(pattern, { cwd: root }))
  .map((dir) => join(root, dir, '.vitest-report.json'));

const unit = process.argv.includes('--unit');
const turboArgs = process.argv.slice(2).filter((arg) => arg !== '--unit');
// Passed through to every package's `vitest run`.
const vitestArgs = unit ? ['--', '--exclude', '**/test/interop/**'] : [];

for (const report of reports) rmSync(report, { force: true });
// Two packages at a time: these machines have two cores, and the interop tests start Python processes and
// servers whose timeouts should not be eaten by a dozen parallel test runs.
const turbo = spawnSync(
  'turbo',
  ['run', 'test', '--continue', '--concurrency=2', ...turboArgs, ...vitestArgs],
  { cwd: root, stdio: 'inherit' },
);

let passed = 0;
let failed = 0;
let skipped = 0;
for (const report of reports.filter((r) => existsSync(r))) {
  const r = JSON.parse(readFileSync(report, 'utf8'));
  passed += r.numPassedTests;
  failed += r.numFailedTests;
  skipped += r.numPendingTests + r.numTodoTests;
}
const scope = unit ? ' (unit tests only; `npm test` adds the interop tests)' : '';
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}${scope}`);
process.exit(turbo.status !== 0 || failed > 0 || passed === 0 ? 1 : 0);
