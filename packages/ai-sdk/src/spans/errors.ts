import { type Exception, type Span, SpanStatusCode } from '@opentelemetry/api';
import { ArclightAttributes } from '../attributes/keys.js';

/** Records `error` on `span`: an `exception` event, `error.type` and status ERROR. */
export function recordError(span: Span, error: unknown): void {
  span.recordException(toException(error));
  span.setAttribute(ArclightAttributes.ERROR_TYPE, errorType(error));
  span.setStatus({ code: SpanStatusCode.ERROR, message: errorMessage(error) });
}

function toException(error: unknown): Exception {
  if (error instanceof Error) return error;
  if (typeof error === 'string') return error;
  return { message: errorMessage(error) };
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return typeof error === 'string' ? error : String(error);
}

function errorType(error: unknown): string {
  if (error instanceof Error) return error.name !== 'Error' ? error.name : error.constructor.name;
  return typeof error;
}
