import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { findRepoRoot } from '../recordings.js';
import { npmEnv } from './npm-env.js';

/**
 * Tools the tests take from the npm registry at an exact version (another Node.js release, pnpm): installed once
 * into `<repo>/node_modules/.cache/<name>-<version>` (inside the clone, not `~/.cache`: tests may run as an
 * unprivileged user who cannot enter root's home), from npm's cache first (`--prefer-offline`: the registry here
 * refuses requests for minutes at times, and a package npm has fetched before installs without it).
 */
export interface RegistryPackage {
  name: string;
  /** An exact version. */
  version: string;
  /** A file of the package (relative to its directory) that exists once it is installed, e.g. `bin/node`. */
  file: string;
}

export interface RegistryPackageOptions {
  /** The repository root. Default: found from this file (the nearest ancestor declaring `workspaces`). */
  root?: string;
  /** All attempts together stop after this long. Default 720 000 ms (below the scratch apps' hook timeout). */
  budgetMs?: number;
}

const ATTEMPTS = 3;
const ATTEMPT_TIMEOUT_MS = 300_000;
const BUDGET_MS = 720_000;

export function repoRoot(): string {
  const root = findRepoRoot();
  if (!root)
    throw new Error('test-fixtures: no repository root (package.json with workspaces) found');
  return root;
}

/**
 * The directory of `pkg` (`…/node_modules/<name>`), installed by npm on first use: into a staging directory
 * renamed into place once `pkg.file` exists, so an interrupted install is never taken for a complete one. Throws
 * with the attempts and npm's last output lines when `ATTEMPTS` installs fail or the budget runs out.
 */
export function registryPackageDir(
  pkg: RegistryPackage,
  options: RegistryPackageOptions = {},
): string {
  const root = options.root ?? repoRoot();
  const prefix = join(root, 'node_modules/.cache', `${pkg.name}-${pkg.version}`);
  const installed = (dir: string): string => join(dir, 'node_modules', pkg.name);
  if (existsSync(join(installed(prefix), pkg.file))) return installed(prefix);

  const deadline = Date.now() + (options.budgetMs ?? BUDGET_MS);
  const staging = `${prefix}.tmp-${process.pid}`;
  const attempts: string[] = [];
  let output = '';
  try {
    for (let attempt = 1; attempt <= ATTEMPTS && Date.now() < deadline; attempt++) {
      rmSync(staging, { recursive: true, force: true });
      mkdirSync(staging, { recursive: true });
      const started = Date.now();
      const timeout = Math.min(ATTEMPT_TIMEOUT_MS, deadline - started);
      const install = spawnSync(
        'npm',
        [
          'install',
          '--prefix',
          staging,
          '--no-save',
          '--no-audit',
          '--no-fund',
          '--prefer-offline',
          '--loglevel=http',
          '--fetch-timeout=30000',
          '--fetch-retries=4',
          `${pkg.name}@${pkg.version}`,
        ],
        {
          encoding: 'utf8',
          env: npmEnv(),
          stdio: ['ignore', 'pipe', 'pipe'],
          timeout,
          killSignal: 'SIGKILL',
          maxBuffer: 64 * 1024 * 1024,
        },
      );
      const seconds = Math.round((Date.now() - started) / 1000);
      output = `${install.stdout ?? ''}${install.stderr ?? ''}`;
      attempts.push(
        install.signal
          ? `attempt ${attempt}: killed after ${seconds} s (limit ${Math.round(timeout / 1000)} s)`
          : `attempt ${attempt}: exit ${install.status} after ${seconds} s`,
      );
      if (existsSync(join(installed(staging), pkg.file))) {
        // An incomplete install left by older code or a killed process: replace it.
        if (!existsSync(join(installed(prefix), pkg.file))) {
          rmSync(prefix, { recursive: true, force: true });
          try {
            renameSync(staging, prefix);
          } catch (error) {
            // Another process put a complete install there first: use it.
            if (!existsSync(join(installed(prefix), pkg.file))) throw error;
          }
        }
        return installed(prefix);
      }
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  throw new Error(
    `could not install ${pkg.name}@${pkg.version} from the npm registry into ${prefix} (${attempts.join('; ') || 'no time left'}); the last 40 lines of npm's output:\n` +
      output.trim().split('\n').slice(-40).join('\n'),
  );
}
