import { LightningSpanAttributes, ValidationError } from '@arclight/core';
import type { SpanLike } from './span-like.js';

/**
 * Upstream `get_message_value`: `agentlightning.message.body` of a message span, or `null` when absent.
 * A non-string body raises `ValidationError`.
 */
export function getMessageValue(span: SpanLike): string | null {
  const attributes = span.attributes ?? {};
  const key = LightningSpanAttributes.MESSAGE_BODY;
  if (!(key in attributes)) return null;
  const body = attributes[key];
  if (typeof body === 'string') return body;
  throw new ValidationError(`span '${span.name}': ${key} must be a string, got ${typeof body}`);
}
