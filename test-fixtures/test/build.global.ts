import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** Builds dist/ (the bin test spawns dist/bin.js). */
export default function setup(): void {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const packageDir = fileURLToPath(new URL('..', import.meta.url));
  const result = spawnSync(process.execPath, [tsc, '-b', packageDir], { encoding: 'utf8' });
  if (result.status !== 0)
    throw new Error(`building test-fixtures failed:\n${result.stdout}${result.stderr}`);
}
