import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { registryPackageDir, repoRoot } from './registry-package.js';

/**
 * Other Node.js releases than the one running, for tests that must run where users run: the npm registry's
 * `node` package at a version, installed once into `<repo>/node_modules/.cache/node-<version>` (inside the clone,
 * not `~/.cache`: tests may run as an unprivileged user who cannot enter root's home).
 */

/** The oldest Node the packages accept: `engines.node` of @arclight/core (e.g. ">=22.13" → "22.13.0"). */
export function floorNodeVersion(root = repoRoot()): string {
  const range = JSON.parse(readFileSync(join(root, 'packages/core/package.json'), 'utf8')).engines
    .node as string;
  const floor = /^>=\s*(\d+)\.(\d+)(?:\.(\d+))?$/.exec(range);
  if (!floor)
    throw new Error(`node-releases: cannot read a ">=x.y" floor from engines.node "${range}"`);
  return `${floor[1]}.${floor[2]}.${floor[3] ?? 0}`;
}

/**
 * The directory holding the `node` binary of release `version` (put it first on `PATH` to run `npx` and
 * `#!/usr/bin/env node` scripts on it), installed from the npm registry on first use (see
 * {@link registryPackageDir}: npm's cache first, 3 attempts within 12 minutes). Throws with npm's output when the
 * install fails.
 */
export function nodeReleaseBin(version: string, root = repoRoot()): string {
  // `bin/node` is written by the package's preinstall (it fetches `node-<platform>-<arch>`): last.
  return join(registryPackageDir({ name: 'node', version, file: 'bin/node' }, { root }), 'bin');
}
