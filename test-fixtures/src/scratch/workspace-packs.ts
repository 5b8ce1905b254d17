import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, relative } from 'node:path';
import { findRepoRoot } from '../recordings.js';
import { npmEnv } from './npm-env.js';

/** The npm tarballs of the repository's publishable packages: package name → absolute path of its `.tgz`. */
export type WorkspacePacks = Readonly<Record<string, string>>;

export interface PackOptions {
  /** The repository root. Default: found from this file (the nearest ancestor declaring `workspaces`). */
  repoRoot?: string;
  /** Where tarballs are cached. Default `$ARCLIGHT_CACHE_DIR/scratch/packs` (`~/.cache/arclight/scratch/packs`). */
  cacheDir?: string;
}

/** `~/.cache/arclight` (or `$ARCLIGHT_CACHE_DIR`): caches that outlive a clone. */
export function arclightCacheDir(): string {
  return process.env.ARCLIGHT_CACHE_DIR || join(homedir(), '.cache', 'arclight');
}

interface PackageInfo {
  dir: string;
  name: string;
  files: string[];
}

const memo = new Map<string, Promise<WorkspacePacks>>();

/**
 * `npm pack`s every non-private package under `packages/` (built: their `dist/` must exist) once per content:
 * the tarballs are cached under a hash of everything npm would pack, so a second call — in this process, another
 * test worker or a later run — reuses them. Throws naming the package when one is not built.
 */
export function packWorkspacePackages(options: PackOptions = {}): Promise<WorkspacePacks> {
  const root = options.repoRoot ?? findRepoRoot();
  if (!root)
    throw new Error(
      'packWorkspacePackages: no repository root (package.json with workspaces) found',
    );
  const cacheDir = options.cacheDir ?? join(arclightCacheDir(), 'scratch', 'packs');
  const key = `${root}\0${cacheDir}`;
  let packs = memo.get(key);
  if (!packs) {
    packs = pack(root, cacheDir);
    memo.set(key, packs);
    packs.catch(() => memo.delete(key));
  }
  return packs;
}

async function pack(root: string, cacheDir: string): Promise<WorkspacePacks> {
  const packages = publishablePackages(root);
  const hash = contentHash(root, packages);
  const target = join(cacheDir, hash);
  const manifest = join(target, 'packs.json');
  if (existsSync(manifest)) return readManifest(manifest);

  const staging = `${target}.tmp-${process.pid}-${Date.now()}`;
  await mkdir(staging, { recursive: true });
  try {
    const args = ['pack', '--json', '--pack-destination', staging];
    for (const p of packages) args.push('-w', relative(root, p.dir));
    const out = await runNpm(args, root);
    const packed = JSON.parse(out.slice(out.indexOf('['))) as Array<{
      name: string;
      filename: string;
    }>;
    const files: Record<string, string> = {};
    for (const entry of packed) files[entry.name] = entry.filename;
    await writeFile(join(staging, 'packs.json'), `${JSON.stringify(files, null, 2)}\n`);
    try {
      await rename(staging, target);
      await pruneOldPacks(cacheDir, target);
    } catch (error) {
      // Another process packed the same content first: use its tarballs.
      if (!existsSync(manifest)) throw error;
      await rm(staging, { recursive: true, force: true });
    }
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
  return readManifest(manifest);
}

/** Keeps the newest few packings (other checkouts may use them) and deletes older ones. */
async function pruneOldPacks(cacheDir: string, keep: string): Promise<void> {
  const KEEP = 4;
  const dirs = readdirSync(cacheDir)
    .map((name) => join(cacheDir, name))
    .filter((dir) => dir !== keep && !dir.includes('.tmp-') && existsSync(join(dir, 'packs.json')))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  for (const dir of dirs.slice(KEEP - 1)) await rm(dir, { recursive: true, force: true });
}

function readManifest(manifest: string): WorkspacePacks {
  const dir = join(manifest, '..');
  const files = JSON.parse(readFileSync(manifest, 'utf8')) as Record<string, string>;
  return Object.freeze(
    Object.fromEntries(Object.entries(files).map(([name, file]) => [name, join(dir, file)])),
  );
}

function publishablePackages(root: string): PackageInfo[] {
  const base = join(root, 'packages');
  const found: PackageInfo[] = [];
  for (const entry of readdirSync(base).sort()) {
    const dir = join(base, entry);
    const pkgPath = join(dir, 'package.json');
    if (!existsSync(pkgPath)) continue;
    const pkg = JSON.parse(readFileSync(pkgPath, 'utf8')) as {
      name: string;
      private?: boolean;
      files?: string[];
    };
    if (pkg.private) continue;
    if (!existsSync(join(dir, 'dist'))) {
      throw new Error(
        `packWorkspacePackages: ${pkg.name} is not built (no ${relative(root, dir)}/dist); run \`npm run build\` first`,
      );
    }
    found.push({ dir, name: pkg.name, files: ['package.json', ...(pkg.files ?? ['dist'])] });
  }
  return found;
}

/** A hash of every file npm would pack (package.json and the `files` entries) of every package. */
function contentHash(root: string, packages: PackageInfo[]): string {
  const hash = createHash('sha256');
  const visit = (path: string): void => {
    if (!existsSync(path)) return;
    const stat = statSync(path);
    if (stat.isDirectory()) {
      for (const entry of readdirSync(path).sort()) visit(join(path, entry));
      return;
    }
    hash.update(`${relative(root, path)}\0${stat.size}\0`);
    hash.update(readFileSync(path));
  };
  for (const p of packages) for (const file of p.files) visit(join(p.dir, file));
  return hash.digest('hex').slice(0, 16);
}

function runNpm(args: string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', args, { cwd, env: npmEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 300_000);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(stdout);
      else reject(new Error(`npm ${args.join(' ')} failed (exit ${code}):\n${stderr}`));
    });
  });
}
