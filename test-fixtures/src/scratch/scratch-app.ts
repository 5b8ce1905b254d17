import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { npmEnv } from './npm-env.js';
import { registryPackageDir } from './registry-package.js';
import { arclightCacheDir, type PackOptions, packWorkspacePackages } from './workspace-packs.js';

/** Dependency version meaning "this repository's package, from its `npm pack` tarball". */
export const WORKSPACE = 'workspace';

export interface ScratchAppOptions extends PackOptions {
  /** Names the temporary directory (`arclight-scratch-<name>-…`). */
  name: string;
  /** The app's `dependencies`: npm specs, or {@link WORKSPACE} for an `@arclight/*` package. */
  dependencies: Record<string, string>;
  /** Files to write, path (relative to the app) → content. */
  files?: Record<string, string>;
  /** Further `package.json` fields (merged over `{ name, private, type: 'module', dependencies }`). */
  packageJson?: Record<string, unknown>;
  /** Kill one install attempt after this long. Default 300 000 ms. */
  installTimeoutMs?: number;
  /**
   * Who installs: `npm` (default) or `pnpm` ({@link PNPM_VERSION}, whose strict, non-hoisted `node_modules` shows
   * an import of an undeclared dependency; the `@arclight/*` pins go in `pnpm.overrides`).
   */
  packageManager?: 'npm' | 'pnpm';
}

/**
 * The pnpm that `packageManager: 'pnpm'` installs with: from the npm registry into `node_modules/.cache` like
 * another Node release (npm's cache first), run by the Node running the tests.
 */
export const PNPM_VERSION = '10.34.9';

export interface RunResult {
  /** Exit code (`null` when killed by a signal, e.g. the timeout). */
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  /** Added to the environment (`undefined` removes a variable). */
  env?: Record<string, string | undefined>;
  /** Kill the process after this long. Default 120 000 ms. */
  timeoutMs?: number;
  /** Run in this directory instead of the app's (e.g. one without `node_modules`, for a bundled build). */
  cwd?: string;
}

/** An app in a temporary directory outside the repository, with its dependencies installed by npm or pnpm. */
export interface ScratchApp {
  readonly dir: string;
  /** What the install printed: its warnings and errors (npm's per-request http log left out). */
  readonly installOutput: RunResult;
  /** Writes files into the app (path relative to the app → content). */
  write(files: Record<string, string>): Promise<void>;
  /** Runs a command in the app's directory (with the `npm_*` variables of an enclosing npm run removed). */
  run(command: string, args?: string[], options?: RunOptions): Promise<RunResult>;
  /** Runs a script with the Node.js running the tests (`.ts` files run with Node's type stripping). */
  node(script: string, args?: string[], options?: RunOptions): Promise<RunResult>;
  /** Deletes the directory (kept when `ARCLIGHT_SCRATCH_KEEP=1`, for debugging). */
  remove(): Promise<void>;
}

/**
 * How a scratch install survives the registry proxy here, which in bursts refuses requests
 * (SELF_SIGNED_CERT_IN_CHAIN) or leaves them hanging without an answer:
 * - npm itself gives up on a request after {@link FETCH_TIMEOUT_MS} (its default is 5 minutes) and retries it;
 * - the whole install is retried when it failed on the registry connection or hung, never for a real resolution
 *   error, waiting 10, 20, 40 and 60 s between attempts (tarballs fetched by a failed attempt stay in npm's cache),
 *   for at most {@link INSTALL_BUDGET_MS} in all, so a dead registry fails the test file with npm's log instead of
 *   outrunning the hook timeout.
 */
const FETCH_TIMEOUT_MS = 30_000;
const INSTALL_ATTEMPTS = 5;
const RETRY_WAITS_MS = [10_000, 20_000, 40_000, 60_000];
const INSTALL_BUDGET_MS = 780_000;
// Connection failures (a proxy's certificate hiccup, resets, DNS, npm's own fetch timeout), ERESOLVE on a package
// whose metadata never arrived ("Found: name@undefined"), which npm reports instead of the failed fetch, and the
// harness's kill of a hung install.
// pnpm's failed metadata fetches and 5xx answers too.
const TRANSIENT_REGISTRY_ERROR =
  /SELF_SIGNED_CERT_IN_CHAIN|ECONNRESET|ETIMEDOUT|EAI_AGAIN|ECONNREFUSED|socket hang up|request-timeout|network timeout|Found: \S+@undefined|ERR_PNPM_META_FETCH_FAIL|ERR_PNPM_FETCH_5\d\d|\[scratch harness: killed after/;
// npm's per-request log (`--loglevel=http`): kept for the error message of a failed install, left out of
// `installOutput`, which holds npm's warnings and errors.
const HTTP_LOG_LINE = /^npm http /;

/**
 * Creates an app in a fresh temporary directory — `package.json` with `dependencies`, plus `files` — and runs
 * `npm install` (or `pnpm install`) there, the way a user's project would install Arclight: `@arclight/*` packages
 * come from the repository's `npm pack` tarballs (every `@arclight/*` dependency, direct or transitive, is pinned
 * to its tarball with `overrides`), everything else from the registry through npm's cache (pnpm's store)
 * first (`--prefer-offline`). Throws with the installer's output when the install fails.
 */
export async function createScratchApp(options: ScratchAppOptions): Promise<ScratchApp> {
  const packs = await packWorkspacePackages(options);
  const fileSpec = (name: string): string => {
    const tarball = packs[name];
    if (!tarball) {
      throw new Error(
        `createScratchApp: ${name} is not a package of this repository (${Object.keys(packs).join(', ')})`,
      );
    }
    return `file:${tarball}`;
  };
  const dependencies: Record<string, string> = {};
  for (const [name, spec] of Object.entries(options.dependencies)) {
    dependencies[name] = spec === WORKSPACE ? fileSpec(name) : spec;
  }
  const overrides = Object.fromEntries(Object.keys(packs).map((name) => [name, fileSpec(name)]));
  const pnpm = options.packageManager === 'pnpm';

  const dir = await mkdtemp(join(tmpdir(), `arclight-scratch-${options.name}-`));
  const pkg = {
    name: `scratch-${options.name}`,
    version: '0.0.0',
    private: true,
    type: 'module',
    dependencies,
    ...(pnpm ? { pnpm: { overrides } } : { overrides }),
    ...options.packageJson,
  };
  await writeFile(join(dir, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  const app = scratchApp(dir);
  const deadline = Date.now() + INSTALL_BUDGET_MS;
  let installer: Installer;
  try {
    // pnpm reads npm's network settings from the project's .npmrc.
    await app.write({
      ...(pnpm ? { '.npmrc': `fetch-timeout=${FETCH_TIMEOUT_MS}\nfetch-retries=4\n` } : {}),
      ...options.files,
    });
    installer = pnpm ? pnpmInstaller(deadline) : NPM_INSTALLER;
  } catch (error) {
    await app.remove();
    throw error;
  }
  const attempts: string[] = [];
  let install: RunResult;
  for (let attempt = 1; ; attempt++) {
    const started = Date.now();
    install = await app.run(installer.command, installer.args, {
      timeoutMs: Math.min(options.installTimeoutMs ?? 300_000, Math.max(deadline - started, 1_000)),
    });
    attempts.push(
      `attempt ${attempt}: exit ${install.code} after ${Math.round((Date.now() - started) / 1000)} s`,
    );
    if (install.code === 0 || attempt === INSTALL_ATTEMPTS) break;
    if (!TRANSIENT_REGISTRY_ERROR.test(`${install.stdout}\n${install.stderr}`)) break;
    const wait = RETRY_WAITS_MS[attempt - 1] ?? 0;
    if (Date.now() + wait >= deadline) break;
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
  if (install.code !== 0) {
    const log = `${install.stdout}\n${install.stderr}`.trim().split('\n');
    await app.remove();
    throw new Error(
      `${installer.name} in scratch app '${options.name}' failed (${attempts.join('; ')}); the last 60 lines of its output:\n` +
        log.slice(-60).join('\n'),
    );
  }
  const withoutHttpLog = (text: string): string =>
    text
      .split('\n')
      .filter((line) => !HTTP_LOG_LINE.test(line))
      .join('\n');
  const installOutput = {
    code: install.code,
    stdout: withoutHttpLog(install.stdout),
    stderr: withoutHttpLog(install.stderr),
  };
  return Object.assign(app, { installOutput });
}

interface Installer {
  /** For messages, e.g. `pnpm 10.34.9 install`. */
  name: string;
  command: string;
  args: string[];
}

const NPM_INSTALLER: Installer = {
  name: 'npm install',
  command: 'npm',
  args: [
    'install',
    '--no-audit',
    '--no-fund',
    '--prefer-offline',
    '--loglevel=http',
    `--fetch-timeout=${FETCH_TIMEOUT_MS}`,
    '--fetch-retries=4',
  ],
};

/**
 * `pnpm install` with pnpm's own CLI file run by this Node (not `npx`, which prints nothing while it fetches pnpm).
 * Its store and metadata cache live next to the scratch tarballs (`$ARCLIGHT_CACHE_DIR/scratch`), so a second
 * install needs no registry. pnpm-only settings go on the command line, not in the app's .npmrc, where the
 * `npx arclight …` runs in the app would warn about them. Turned off: the check for a newer pnpm, pnpm fetching
 * the pnpm a `packageManager` field names, the prompt before it purges a `node_modules` it did not write (left
 * by a killed attempt) and a lockfile demanded when `CI` is set.
 */
function pnpmInstaller(deadline: number): Installer {
  const pnpm = registryPackageDir(
    { name: 'pnpm', version: PNPM_VERSION, file: 'bin/pnpm.cjs' },
    { budgetMs: Math.max(deadline - Date.now(), 1_000) },
  );
  const cache = join(arclightCacheDir(), 'scratch');
  return {
    name: `pnpm ${PNPM_VERSION} install`,
    command: process.execPath,
    args: [
      join(pnpm, 'bin/pnpm.cjs'),
      'install',
      '--reporter=append-only',
      '--prefer-offline',
      '--no-frozen-lockfile',
      '--ignore-workspace',
      `--store-dir=${join(cache, 'pnpm-store')}`,
      `--cache-dir=${join(cache, 'pnpm-cache')}`,
      '--config.update-notifier=false',
      '--config.manage-package-manager-versions=false',
      '--config.confirm-modules-purge=false',
    ],
  };
}

function scratchApp(dir: string): Omit<ScratchApp, 'installOutput'> {
  const run = (command: string, args: string[] = [], opts: RunOptions = {}): Promise<RunResult> =>
    runProcess(command, args, opts.cwd ?? dir, opts);
  return {
    dir,
    async write(files) {
      for (const [path, content] of Object.entries(files)) {
        const target = join(dir, path);
        await mkdir(dirname(target), { recursive: true });
        await writeFile(target, content);
      }
    },
    run,
    node: (script, args = [], opts = {}) => run(process.execPath, [script, ...args], opts),
    async remove() {
      if (process.env.ARCLIGHT_SCRATCH_KEEP === '1') return;
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Runs `command` with its output captured. At `timeoutMs` the whole process group is killed (the command runs in
 * its own group: an `npx` or `npm` killed alone leaves its children holding the output pipes open), and the
 * output ends with a line saying so and how long before that the command last printed anything.
 */
function runProcess(
  command: string,
  args: string[],
  cwd: string,
  options: RunOptions,
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      env: npmEnv(options.env),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    let lastOutput = Date.now();
    child.stdout.on('data', (d) => {
      stdout += d;
      lastOutput = Date.now();
    });
    child.stderr.on('data', (d) => {
      stderr += d;
      lastOutput = Date.now();
    });
    let settled = false;
    const settle = (code: number | null): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(straggler);
      resolve({ code, stdout, stderr });
    };
    const timeoutMs = options.timeoutMs ?? 120_000;
    let straggler: NodeJS.Timeout | undefined;
    const timer = setTimeout(() => {
      const silent = Math.round((Date.now() - lastOutput) / 1000);
      stderr +=
        `\n[scratch harness: killed after ${timeoutMs} ms; ` +
        (stdout || stderr ? `its last output was ${silent} s before]` : 'it printed nothing]');
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
      // A process outside the group holding the pipes open must not keep the caller waiting.
      straggler = setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        settle(null);
      }, 5_000);
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      clearTimeout(straggler);
      settled = true;
      reject(error);
    });
    child.on('close', (code) => settle(code));
  });
}
