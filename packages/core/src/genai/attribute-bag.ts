import { toJson } from './json-readers.js';

/** An attribute value every OpenTelemetry API accepts (arrays are homogeneous). */
export type AttributeRecordValue = string | number | boolean | string[] | number[] | boolean[];

/** Span attributes as the gen_ai functions return them: assignable to OpenTelemetry's `Attributes`. */
export type AttributeRecord = Record<string, AttributeRecordValue>;

/** How an {@link AttributeBag} turns values that are not attribute values into text. */
export interface AttributeEncoding {
  /** JSON text of a value; must never throw (default {@link toJson}). */
  toJson?: (value: unknown) => string;
  /** Keep a number array only when every number is finite (else it becomes JSON). Default false. */
  finiteNumberArrays?: boolean;
}

/**
 * Collects span attributes, dropping `null`/`undefined`/non-finite numbers and turning anything that is not a
 * valid attribute value (objects, mixed arrays) into JSON text.
 */
export class AttributeBag {
  readonly attributes: AttributeRecord = {};
  private readonly json: (value: unknown) => string;
  private readonly finiteNumberArrays: boolean;

  constructor(encoding: AttributeEncoding = {}) {
    this.json = encoding.toJson ?? toJson;
    this.finiteNumberArrays = encoding.finiteNumberArrays === true;
  }

  set(key: string, value: unknown): void {
    const converted = this.toAttributeValue(value);
    if (converted !== undefined) this.attributes[key] = converted;
  }

  /** Sets `key` to the JSON text of `value` (when it is neither `null` nor `undefined`). */
  setJson(key: string, value: unknown): void {
    if (value !== undefined && value !== null) this.attributes[key] = this.json(value);
  }

  /** Copies attributes that are already converted (what the gen_ai functions return). */
  merge(attributes: AttributeRecord): void {
    Object.assign(this.attributes, attributes);
  }

  private toAttributeValue(value: unknown): AttributeRecordValue | undefined {
    switch (typeof value) {
      case 'string':
      case 'boolean':
        return value;
      case 'number':
        return Number.isFinite(value) ? value : undefined;
      case 'object':
        if (value === null) return undefined;
        if (Array.isArray(value) && this.isHomogeneousPrimitiveArray(value)) {
          return value.slice() as AttributeRecordValue;
        }
        return this.json(value);
      default:
        return undefined;
    }
  }

  private isHomogeneousPrimitiveArray(values: readonly unknown[]): boolean {
    if (values.length === 0) return true;
    const kind = typeof values[0];
    if (kind !== 'string' && kind !== 'number' && kind !== 'boolean') return false;
    const finite = this.finiteNumberArrays && kind === 'number';
    return values.every((v) => typeof v === kind && (!finite || Number.isFinite(v)));
  }
}
