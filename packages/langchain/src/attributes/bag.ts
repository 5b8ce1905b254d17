import type { Attributes, AttributeValue } from '@opentelemetry/api';
import { safeJson } from '../json.js';

/**
 * Collects span attributes: `null`/`undefined` and non-finite numbers are dropped, homogeneous primitive
 * arrays stay arrays, anything else that is not a valid OpenTelemetry attribute value becomes JSON text.
 */
export class AttributeBag {
  readonly attributes: Attributes = {};

  set(key: string, value: unknown): void {
    const converted = toAttributeValue(value);
    if (converted !== undefined) this.attributes[key] = converted;
  }

  /** Sets `key` to the JSON text of `value` (when it is neither `null` nor `undefined`). */
  setJson(key: string, value: unknown): void {
    if (value !== undefined && value !== null) this.attributes[key] = safeJson(value);
  }
}

function toAttributeValue(value: unknown): AttributeValue | undefined {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : undefined;
    case 'object':
      if (value === null) return undefined;
      if (Array.isArray(value) && isHomogeneousPrimitiveArray(value)) {
        return value.slice() as AttributeValue;
      }
      return safeJson(value);
    default:
      return undefined;
  }
}

function isHomogeneousPrimitiveArray(values: readonly unknown[]): boolean {
  if (values.length === 0) return true;
  const kind = typeof values[0];
  if (kind !== 'string' && kind !== 'number' && kind !== 'boolean') return false;
  return values.every((v) => typeof v === kind);
}
