import type { Attributes } from '@arclight/core';

/**
 * Upstream `format_exception_attributes`, with JavaScript's equivalents: `exception.type` is the error's class
 * name (`TypeError`, or a custom subclass's name — like Python's `type(e).__name__`), `exception.message` its
 * message, `exception.escaped` true, and `exception.stacktrace` the error's `stack` when it has one.
 */
export function exceptionAttributes(error: unknown): Attributes {
  const isError = error instanceof Error;
  const type = isError ? errorTypeName(error) : typeof error;
  const attributes: Attributes = {
    'exception.type': type,
    'exception.message': isError ? error.message : String(error),
    'exception.escaped': true,
  };
  const stack = isError ? error.stack : undefined;
  if (stack?.trim()) attributes['exception.stacktrace'] = stack;
  return attributes;
}

function errorTypeName(error: Error): string {
  const ctorName = (error as { constructor?: { name?: unknown } }).constructor?.name;
  if (typeof ctorName === 'string' && ctorName !== '' && ctorName !== 'Error') return ctorName;
  return error.name || 'Error';
}
