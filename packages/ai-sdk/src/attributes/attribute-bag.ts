import type { Attributes, AttributeValue } from '@opentelemetry/api';
import { toJson } from '../json.js';

/**
 * Collects span attributes, dropping `null`/`undefined` and turning anything that is not a valid OTel
 * attribute value (objects, mixed arrays) into a JSON string.
 */
export class AttributeBag {
  readonly attributes: Attributes = {};

  set(key: string, value: unknown): void {
    const converted = toAttributeValue(value);
    if (converted !== undefined) this.attributes[key] = converted;
  }

  /** Sets `key` to a JSON string of `value` (when defined). */
  setJson(key: string, value: unknown): void {
    if (value !== undefined && value !== null) this.attributes[key] = toJson(value);
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
      return toJson(value);
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
