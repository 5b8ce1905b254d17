// Readers of the spans `emitMessage` and `emitObject` (@arclight/otel) write.
import { ValidationError } from '../errors.js';
import { LightningSpanAttributes } from '../semconv.js';
import type { SpanLike } from '../types/span.js';

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

/**
 * Upstream `get_object_value`: the value an object span holds (the inverse of `encodeObject`), or `null` for
 * spans without one. `int` literals come back as numbers (bigints beyond 2^53), `float` literals accept
 * Python's `nan`/`inf`/`-inf`, `bytes` come back as a `Uint8Array`. Unreadable payloads and unknown literal
 * types raise `ValidationError`.
 */
export function getObjectValue(span: SpanLike): unknown {
  const attributes = span.attributes ?? {};
  const { OBJECT_JSON, OBJECT_LITERAL, OBJECT_TYPE } = LightningSpanAttributes;
  if (OBJECT_JSON in attributes) {
    try {
      return JSON.parse(String(attributes[OBJECT_JSON]));
    } catch (error) {
      throw new ValidationError(`span '${span.name}': ${OBJECT_JSON} is not valid JSON`, {
        cause: error,
      });
    }
  }
  if (!(OBJECT_LITERAL in attributes)) return null;
  const literal = String(attributes[OBJECT_LITERAL]);
  const type = attributes[OBJECT_TYPE] ?? 'str';
  const bad = () =>
    new ValidationError(
      `span '${span.name}': ${OBJECT_LITERAL} '${literal}' is not a valid ${type}`,
    );
  switch (type) {
    case 'str':
      return literal;
    case 'int': {
      if (!/^\s*[+-]?\d+\s*$/.test(literal)) throw bad();
      const big = BigInt(literal.trim());
      const small = Number(big);
      return Number.isSafeInteger(small) ? small : big;
    }
    case 'float': {
      const special: Record<string, number> = {
        nan: Number.NaN,
        inf: Number.POSITIVE_INFINITY,
        '+inf': Number.POSITIVE_INFINITY,
        '-inf': Number.NEGATIVE_INFINITY,
        infinity: Number.POSITIVE_INFINITY,
        '+infinity': Number.POSITIVE_INFINITY,
        '-infinity': Number.NEGATIVE_INFINITY,
      };
      const lowered = literal.trim().toLowerCase();
      if (lowered in special) return special[lowered];
      const value = Number(lowered);
      if (lowered === '' || Number.isNaN(value)) throw bad();
      return value;
    }
    case 'bool':
      return literal.toLowerCase() === 'true';
    case 'bytes':
      return new Uint8Array(Buffer.from(literal, 'base64'));
    default:
      throw new ValidationError(
        `span '${span.name}': unsupported ${OBJECT_TYPE} '${String(type)}' for a literal`,
      );
  }
}
