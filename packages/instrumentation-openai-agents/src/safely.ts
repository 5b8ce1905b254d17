import { createSafely } from '@arclight/instrumentation';
import { INSTRUMENTATION_NAME } from './version.js';

const guard = createSafely(INSTRUMENTATION_NAME);

/** Runs `fn`; a throw is logged with `diag.debug` and turned into `undefined` (never reaches the SDK). */
export function safely<T>(what: string, fn: () => T): T | undefined {
  return guard<T | undefined>(what, fn, undefined);
}
