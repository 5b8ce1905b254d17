import { type Exception, type Span, SpanStatusCode } from '@opentelemetry/api';

/** OpenTelemetry's `error.type` attribute. */
export const ERROR_TYPE = 'error.type';

/**
 * The one `error.type` rule of every Arclight instrumentation: an `Error`'s `name` when it is specific
 * (`APIConnectionError`, `AbortError`), else its class name (`class MyError extends Error` keeps `name` =
 * `'Error'`); anything thrown that is not an `Error` is `'Error'`.
 */
export function errorType(error: unknown): string {
  if (error instanceof Error) {
    const name = typeof error.name === 'string' ? error.name : '';
    if (name && name !== 'Error') return name;
    return error.constructor?.name || 'Error';
  }
  return 'Error';
}

/** The message of anything thrown: an `Error`'s message, the first line of a string, else `String(value)`. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') {
    const end = error.indexOf('\n');
    return end === -1 ? error : error.slice(0, end);
  }
  try {
    return String(error);
  } catch {
    return 'unprintable error';
  }
}

function toException(error: unknown): Exception {
  if (error instanceof Error) return error;
  return { name: 'Error', message: errorMessage(error) };
}

/** Records a failure on `span`: an `exception` event, `error.type` and status ERROR with the message. */
export function recordError(span: Span, error: unknown): void {
  span.recordException(toException(error));
  span.setAttribute(ERROR_TYPE, errorType(error));
  span.setStatus({ code: SpanStatusCode.ERROR, message: errorMessage(error) });
}
