import {
  AGL_OBJECT,
  type Attributes,
  isPlainRecord,
  LightningSpanAttributes,
  type SpanCoreFields,
  ValidationError,
} from '@arclight/core';
import { flattenAttributes } from '../attributes/flatten.js';
import { pythonJsonDumps } from '../attributes/python-json.js';
import { sanitizeAttributes } from '../attributes/sanitize.js';
import { type EmitOptions, emitSpan, STATUS_OK } from './emit-span.js';

/**
 * Upstream `emit_object`: an `agentlightning.object` span (status OK) holding `value` as
 * `agentlightning.object.type` plus either `agentlightning.object.literal` or `agentlightning.object.json`
 * (see {@link encodeObject}), plus `attributes` flattened.
 */
export function emitObject(
  value: unknown,
  attributes?: Record<string, unknown> | null,
  options: EmitOptions = {},
): SpanCoreFields {
  const spanAttributes = encodeObject(value);
  if (attributes) Object.assign(spanAttributes, sanitizeAttributes(flattenAttributes(attributes)));
  return emitSpan(AGL_OBJECT, spanAttributes, { ...options, status: STATUS_OK });
}

/**
 * Upstream `encode_object`, with Python's type names for JavaScript values:
 *
 * | value | `object.type` | payload |
 * |---|---|---|
 * | string | `str` | literal: the string |
 * | integral number, bigint | `int` | literal: decimal digits |
 * | other number | `float` | literal: `String(n)`; NaN/±Infinity as Python writes them: `nan`, `inf`, `-inf` |
 * | boolean | `bool` | literal: `True` / `False` |
 * | Uint8Array / Buffer / ArrayBuffer | `bytes` | literal: base64 |
 * | null / undefined | `NoneType` | json: `null` |
 * | array | `list` | json |
 * | plain object | `dict` | json |
 * | class instance (Date, custom classes, …) | its constructor name | json (`toJSON` honoured) |
 *
 * JSON is written like Python's `json.dumps`. Values JSON cannot hold — functions, symbols, Map, Set, BigInt
 * inside a structure, circular references — raise `ValidationError`.
 */
export function encodeObject(value: unknown): Attributes {
  const { OBJECT_TYPE, OBJECT_LITERAL, OBJECT_JSON } = LightningSpanAttributes;
  const literal = (type: string, text: string): Attributes => ({
    [OBJECT_TYPE]: type,
    [OBJECT_LITERAL]: text,
  });
  switch (typeof value) {
    case 'string':
      return literal('str', value);
    case 'boolean':
      return literal('bool', value ? 'True' : 'False');
    case 'bigint':
      return literal('int', value.toString());
    case 'number':
      if (Number.isInteger(value)) return literal('int', BigInt(value).toString());
      return literal('float', pythonFloatText(value));
    case 'function':
    case 'symbol':
      throw new ValidationError(`object must be JSON serializable, got a ${typeof value}`);
  }
  const bytes = asBytes(value);
  if (bytes) return literal('bytes', Buffer.from(bytes).toString('base64'));
  const json = pythonJsonDumps(value, { what: 'object' });
  return { [OBJECT_TYPE]: pythonTypeName(value), [OBJECT_JSON]: json };
}

/** Python's `str(float)` for the values where it differs from JavaScript's. */
function pythonFloatText(value: number): string {
  if (Number.isNaN(value)) return 'nan';
  if (value === Number.POSITIVE_INFINITY) return 'inf';
  if (value === Number.NEGATIVE_INFINITY) return '-inf';
  return String(value);
}

function asBytes(value: unknown): Uint8Array | null {
  if (value instanceof Uint8Array) return value;
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  return null;
}

function pythonTypeName(value: unknown): string {
  if (value === null || value === undefined) return 'NoneType';
  if (Array.isArray(value)) return 'list';
  if (isPlainRecord(value)) return 'dict';
  return (value as { constructor?: { name?: string } }).constructor?.name || 'object';
}
