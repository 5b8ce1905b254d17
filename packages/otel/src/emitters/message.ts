import {
  AGL_MESSAGE,
  type Attributes,
  describeValue,
  LightningSpanAttributes,
  type SpanCoreFields,
  ValidationError,
} from '@arclight/core';
import { flattenAttributes } from '../attributes/flatten.js';
import { sanitizeAttributes } from '../attributes/sanitize.js';
import { type EmitOptions, emitSpan } from './emit-span.js';

/**
 * Upstream `emit_message`: an `agentlightning.message` span with `agentlightning.message.body` = `message`,
 * plus `attributes` flattened and sanitised. The span's status is left UNSET (OK with `propagate: false`), as
 * upstream. A non-string message raises `ValidationError`.
 */
export function emitMessage(
  message: string,
  attributes?: Record<string, unknown> | null,
  options: EmitOptions = {},
): SpanCoreFields {
  if (typeof message !== 'string') {
    throw new ValidationError(`message must be a string, got ${describeValue(message)}`);
  }
  const spanAttributes: Attributes = { [LightningSpanAttributes.MESSAGE_BODY]: message };
  if (attributes) Object.assign(spanAttributes, sanitizeAttributes(flattenAttributes(attributes)));
  return emitSpan(AGL_MESSAGE, spanAttributes, options);
}
