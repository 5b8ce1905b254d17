import { diag } from '@opentelemetry/api';

/**
 * Runs tracing code that must never disturb the application: any exception is logged with `diag.debug`
 * and swallowed, and `fallback` is returned instead.
 */
export function safely<T>(what: string, fn: () => T, fallback: T): T {
  try {
    return fn();
  } catch (error) {
    diag.debug(`@arclight/ai-sdk: ${what} failed`, error);
    return fallback;
  }
}
