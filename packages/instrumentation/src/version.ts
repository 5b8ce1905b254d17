import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * Name and version of the package that holds the module at `moduleUrl` (its `import.meta.url`), read from the
 * `package.json` one folder above the module's folder (`src/` and `dist/` both sit at the package root).
 * Instrumentation scopes report them, so they cannot drift from what is published.
 */
export function packageIdentity(moduleUrl: string): { name: string; version: string } {
  try {
    const json = JSON.parse(readFileSync(new URL('../package.json', moduleUrl), 'utf8')) as {
      name?: unknown;
      version?: unknown;
    };
    return {
      name: typeof json.name === 'string' ? json.name : 'unknown',
      version: typeof json.version === 'string' ? json.version : '0.0.0',
    };
  } catch {
    return { name: 'unknown', version: '0.0.0' };
  }
}

/**
 * The version of the package `name` as the module at `moduleUrl` resolves it (`<name>/package.json`): for an
 * integration's peer dependency, the application's copy. `undefined` when it cannot be resolved or read (e.g.
 * a package whose `exports` hide its `package.json`).
 */
export function resolvedPackageVersion(moduleUrl: string, name: string): string | undefined {
  try {
    const pkg = createRequire(moduleUrl)(`${name}/package.json`) as { version?: unknown };
    return typeof pkg.version === 'string' ? pkg.version : undefined;
  } catch {
    return undefined;
  }
}

/** The major of a semver version (`'6.0.333'` → 6), or `undefined` when it does not start with a number. */
export function majorVersion(version: string | undefined): number | undefined {
  if (version === undefined) return undefined;
  const major = Number.parseInt(version, 10);
  return Number.isFinite(major) ? major : undefined;
}
