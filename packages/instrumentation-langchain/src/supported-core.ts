import { majorVersion, resolvedPackageVersion } from '@arclight/instrumentation';

/** The `@langchain/core` versions this integration supports (its peer range). */
export const SUPPORTED_LANGCHAIN_CORE = '^1.0.0';

/** Thrown when the handler is created on `@langchain/core` < 1, whose callbacks it cannot follow. */
export class UnsupportedLangChainCoreError extends Error {
  readonly code = 'ERR_ARCLIGHT_UNSUPPORTED_LANGCHAIN';
  constructor(readonly version: string) {
    super(
      `@arclight/instrumentation-langchain supports @langchain/core ${SUPPORTED_LANGCHAIN_CORE}; the installed ` +
        `@langchain/core is ${version} (0.x), whose runs it cannot record. Fix: upgrade LangChain — npm install ` +
        '@langchain/core@^1 (with @langchain/langgraph@^1 and @langchain/openai@^1 where you use them).',
    );
    this.name = 'UnsupportedLangChainCoreError';
  }
}

/** The version of `@langchain/core` this package resolves (the application's copy), if it can be read. */
export function installedLangChainCoreVersion(): string | undefined {
  return resolvedPackageVersion(import.meta.url, '@langchain/core');
}

/**
 * Throws {@link UnsupportedLangChainCoreError} when `version` (default: the installed `@langchain/core`) is
 * below 1. An unreadable version passes (the import of `@langchain/core` itself then decides).
 */
export function assertSupportedLangChainCore(
  version: string | undefined = installedLangChainCoreVersion(),
): void {
  const major = majorVersion(version);
  if (major !== undefined && major < 1) throw new UnsupportedLangChainCoreError(version as string);
}
