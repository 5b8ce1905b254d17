import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/**
 * The browser test spawns the built CLI and the built room-selector example and serves the built dashboard:
 * compiles the first two (with their project references) and checks the dashboard was built.
 */
export default function setup(): void {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  for (const dir of ['../../cli', '../../../examples/room-selector']) {
    const project = fileURLToPath(new URL(dir, import.meta.url));
    const result = spawnSync(process.execPath, [tsc, '-b', project], { encoding: 'utf8' });
    if (result.status !== 0)
      throw new Error(`building ${project} failed:\n${result.stdout}${result.stderr}`);
  }
  const index = fileURLToPath(new URL('../dist/app/index.html', import.meta.url));
  if (!existsSync(index)) {
    throw new Error(
      `${index} is missing: build the dashboard first (npm run build -w packages/dashboard)`,
    );
  }
}
