import { diag } from '@opentelemetry/api';

/** Runs `fn`; a throw is logged with `diag.debug` and turned into `fallback`. */
export type Safely = <T>(what: string, fn: () => T, fallback: T) => T;

/**
 * The guard of every line of instrumentation code that runs inside the user's agent: an instrumentation must
 * never break the call it observes. `scope` (the package name) prefixes the debug message.
 */
export function createSafely(scope: string): Safely {
  return <T>(what: string, fn: () => T, fallback: T): T => {
    try {
      return fn();
    } catch (error) {
      diag.debug(`${scope}: ${what} failed: ${describeError(error)}`);
      return fallback;
    }
  };
}

/** `Name: message` of an error, never throwing (hostile getters). */
export function describeError(error: unknown): string {
  try {
    return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  } catch {
    return 'unprintable error';
  }
}
