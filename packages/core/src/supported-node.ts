/**
 * The Node.js version check every Arclight package runs first (each entry point imports
 * `@arclight/core/supported-node` before anything else). Arclight needs Node.js >= 22.13: the SQLite store uses
 * the unflagged built-in `node:sqlite`, and the packages use APIs of Node 22. On an older Node, importing any
 * package throws one error with `code: 'ERR_ARCLIGHT_UNSUPPORTED_NODE'` naming the requirement — instead of
 * whatever unrelated error the first missing API would raise later. This module imports nothing.
 */

/** The oldest supported Node.js release. */
export const MINIMUM_NODE_VERSION = '22.13.0';

/** Error code of {@link UnsupportedNodeError}. */
export const UNSUPPORTED_NODE_CODE = 'ERR_ARCLIGHT_UNSUPPORTED_NODE';

/** Thrown on import by every Arclight package on a Node.js older than {@link MINIMUM_NODE_VERSION}. */
export class UnsupportedNodeError extends Error {
  readonly code = UNSUPPORTED_NODE_CODE;
  /** The running Node.js version, e.g. `"20.20.2"`. */
  readonly nodeVersion: string;

  constructor(nodeVersion: string) {
    super(
      `Arclight needs Node.js >= ${MINIMUM_NODE_VERSION}, but this is Node.js ${nodeVersion} ` +
        `(${process.execPath}). Install Node.js 22.13 or newer (e.g. \`nvm install 24\`), or run through npm ` +
        'scripts of a project that has the `node` package (>= 22.13) as a dev dependency.',
    );
    this.name = 'UnsupportedNodeError';
    this.nodeVersion = nodeVersion;
  }
}

/** Whether `version` (`"22.13.0"`, `"v20.20.2"`) is at least {@link MINIMUM_NODE_VERSION}. */
export function isSupportedNodeVersion(version: string): boolean {
  const parts = version.replace(/^v/, '').split('.').map(Number);
  const minimum = MINIMUM_NODE_VERSION.split('.').map(Number);
  for (let i = 0; i < minimum.length; i++) {
    const part = parts[i] ?? 0;
    if (!Number.isFinite(part)) return false;
    if (part !== minimum[i]) return part > (minimum[i] as number);
  }
  return true;
}

/** Throws {@link UnsupportedNodeError} unless `version` (default: the running Node.js) is supported. */
export function assertSupportedNode(version: string = process.versions.node): void {
  if (!isSupportedNodeVersion(version)) throw new UnsupportedNodeError(version);
}

assertSupportedNode();
