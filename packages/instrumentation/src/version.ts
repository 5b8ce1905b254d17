import { readFileSync } from 'node:fs';

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
