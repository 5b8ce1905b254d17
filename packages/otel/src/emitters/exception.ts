import { AGL_EXCEPTION, describeValue, type SpanCoreFields, ValidationError } from '@arclight/core';
import { flattenAttributes } from '../attributes/flatten.js';
import { sanitizeAttributes } from '../attributes/sanitize.js';
import { exceptionAttributes } from '../tracer/exception-attributes.js';
import { type EmitOptions, emitSpan, STATUS_OK } from './emit-span.js';

/**
 * Upstream `emit_exception`: an `agentlightning.exception` span with OpenTelemetry's `exception.type`,
 * `exception.message`, `exception.escaped` (true) and `exception.stacktrace`, plus `attributes` flattened. The
 * span itself succeeded: status OK. Anything but an `Error` raises `ValidationError`.
 */
export function emitException(
  error: Error,
  attributes?: Record<string, unknown> | null,
  options: EmitOptions = {},
): SpanCoreFields {
  if (!(error instanceof Error)) {
    throw new ValidationError(`error must be an Error instance, got ${describeValue(error)}`);
  }
  const spanAttributes = exceptionAttributes(error);
  if (attributes) Object.assign(spanAttributes, sanitizeAttributes(flattenAttributes(attributes)));
  return emitSpan(AGL_EXCEPTION, spanAttributes, { ...options, status: STATUS_OK });
}
