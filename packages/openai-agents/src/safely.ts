import { diag } from '@opentelemetry/api';
import { INSTRUMENTATION_NAME } from './version.js';

/** Runs `fn`; a throw is logged with `diag.debug` and turned into `undefined` (never reaches the SDK). */
export function safely<T>(what: string, fn: () => T): T | undefined {
  try {
    return fn();
  } catch (error) {
    diag.debug(`${INSTRUMENTATION_NAME}: ${what} failed: ${describe(error)}`);
    return undefined;
  }
}

function describe(error: unknown): string {
  try {
    return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  } catch {
    return 'unprintable error';
  }
}
