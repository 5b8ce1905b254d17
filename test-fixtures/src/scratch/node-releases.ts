import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { findRepoRoot } from '../recordings.js';
import { npmEnv } from './npm-env.js';

/**
 * Other Node.js releases than the one running, for tests that must run where users run: the npm registry's
 * `node` package at a version, installed once into `<repo>/node_modules/.cache/node-<version>` (inside the clone,
 * not `~/.cache`: tests may run as an unprivileged user who cannot enter root's home).
 */

const ATTEMPTS = 3;
/** All attempts together stay below the scratch apps' 15-minute hook timeout. */
const BUDGET_MS = 720_000;

function repoRoot(): string {
  const root = findRepoRoot();
  if (!root)
    throw new Error('node-releases: no repository root (package.json with workspaces) found');
  return root;
}

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
 * `#!/usr/bin/env node` scripts on it), installed from the npm registry on first use. Throws with npm's output
 * when the install fails `ATTEMPTS` times or `BUDGET_MS` runs out (a registry that keeps failing).
 */
export function nodeReleaseBin(version: string, root = repoRoot()): string {
  const prefix = join(root, 'node_modules/.cache', `node-${version}`);
  const node = join(prefix, 'node_modules/node/bin/node');
  let output = '';
  const deadline = Date.now() + BUDGET_MS;
  for (
    let attempt = 1;
    !existsSync(node) && attempt <= ATTEMPTS && Date.now() < deadline;
    attempt++
  ) {
    mkdirSync(prefix, { recursive: true });
    const install = spawnSync(
      'npm',
      [
        'install',
        '--prefix',
        prefix,
        '--no-save',
        '--no-audit',
        '--no-fund',
        '--prefer-offline',
        '--fetch-timeout=30000',
        '--fetch-retries=4',
        `node@${version}`,
      ],
      { encoding: 'utf8', env: npmEnv(), timeout: Math.min(300_000, deadline - Date.now()) },
    );
    output = `${install.stdout ?? ''}${install.stderr ?? ''}`;
  }
  if (!existsSync(node)) {
    throw new Error(`node-releases: could not install node@${version} into ${prefix}:\n${output}`);
  }
  return dirname(node);
}
