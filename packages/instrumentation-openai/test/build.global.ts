import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** Builds dist/ before the tests: the child-process tests load the package the way an app does. */
export default function setup(): void {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const packageDir = fileURLToPath(new URL('..', import.meta.url));
  const result = spawnSync(process.execPath, [tsc, '-b', packageDir], { encoding: 'utf8' });
  if (result.status !== 0) {
    throw new Error(
      `building @arclight/instrumentation-openai failed:\n${result.stdout}${result.stderr}`,
    );
  }
}
