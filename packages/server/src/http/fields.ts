import { unprocessable } from './errors.js';

export type JsonObject = Record<string, unknown>;

export const isJsonObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Reads and type-checks the fields of a request body or query string, with FastAPI's semantics: a field may be
 * absent (`undefined`), explicitly `null`, or a value of its type; anything else is a 422 naming the field
 * (`body.limit`, `query.status_in`). Query values arrive as strings (or string arrays for repeated keys).
 */
export class Fields {
  readonly source: JsonObject;
  readonly where: 'body' | 'query';

  constructor(source: JsonObject, where: 'body' | 'query') {
    this.source = source;
    this.where = where;
  }

  /** The body as an object; an absent body is `{}` when `optional`, else a 422. */
  static body(body: unknown, optional = false): Fields {
    if (body === undefined || (optional && body === null)) {
      if (optional) return new Fields({}, 'body');
      throw unprocessable('body: Field required');
    }
    if (!isJsonObject(body)) throw unprocessable('body: Input should be a JSON object');
    return new Fields(body, 'body');
  }

  static query(query: unknown): Fields {
    return new Fields(isJsonObject(query) ? query : {}, 'query');
  }

  /** Whether the key is present (even with a `null` value): upstream's `model_fields_set`. */
  has(key: string): boolean {
    return Object.hasOwn(this.source, key) && this.source[key] !== undefined;
  }

  fail(key: string, message: string): never {
    throw unprocessable(`${this.where}.${key}: ${message}`);
  }

  /** The raw value (last one for a repeated query key). */
  raw(key: string): unknown {
    if (!this.has(key)) return undefined;
    const value = this.source[key];
    if (this.where === 'query' && Array.isArray(value)) return value[value.length - 1];
    return value;
  }

  required(key: string): unknown {
    if (!this.has(key)) this.fail(key, 'Field required');
    return this.raw(key);
  }

  string(key: string): string | null | undefined {
    const value = this.raw(key);
    if (value === undefined || value === null || typeof value === 'string') return value;
    return this.fail(key, 'Input should be a valid string');
  }

  requiredString(key: string): string {
    const value = this.string(key);
    if (value === undefined) return this.fail(key, 'Field required');
    if (value === null) return this.fail(key, 'Input should be a valid string');
    return value;
  }

  int(key: string): number | null | undefined {
    const value = this.raw(key);
    if (value === undefined || value === null) return value;
    const n = typeof value === 'string' && /^\s*[-+]?\d+\s*$/.test(value) ? Number(value) : value;
    if (typeof n === 'number' && Number.isSafeInteger(n)) return n;
    return this.fail(key, 'Input should be a valid integer');
  }

  /** An integer field with a default; `null` is rejected like pydantic's non-Optional `int`. */
  intOr(key: string, fallback: number): number {
    const value = this.int(key);
    if (value === null) return this.fail(key, 'Input should be a valid integer');
    return value ?? fallback;
  }

  number(key: string): number | null | undefined {
    const value = this.raw(key);
    if (value === undefined || value === null) return value;
    const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
    if (typeof n === 'number' && Number.isFinite(n)) return n;
    return this.fail(key, 'Input should be a valid number');
  }

  enumValue<T extends string>(key: string, allowed: readonly T[]): T | null | undefined {
    const value = this.raw(key);
    if (value === undefined || value === null) return value;
    if (typeof value === 'string' && (allowed as readonly string[]).includes(value))
      return value as T;
    return this.fail(key, `Input should be ${allowed.map((a) => `'${a}'`).join(', ')}`);
  }

  object(key: string): JsonObject | null | undefined {
    const value = this.raw(key);
    if (value === undefined || value === null || isJsonObject(value)) return value;
    return this.fail(key, 'Input should be a valid dictionary');
  }

  /** A list of strings: a JSON array in a body, a single or repeated key in a query. */
  stringList(key: string): string[] | null | undefined {
    if (!this.has(key)) return undefined;
    const value = this.source[key];
    if (value === null) return null;
    const list = this.where === 'query' && !Array.isArray(value) ? [value] : value;
    if (!Array.isArray(list)) return this.fail(key, 'Input should be a valid list');
    list.forEach((item, index) => {
      if (typeof item !== 'string') this.fail(`${key}.${index}`, 'Input should be a valid string');
    });
    return list as string[];
  }

  enumList<T extends string>(key: string, allowed: readonly T[]): T[] | null | undefined {
    const list = this.stringList(key);
    list?.forEach((item, index) => {
      if (!(allowed as readonly string[]).includes(item)) {
        this.fail(`${key}.${index}`, `Input should be ${allowed.map((a) => `'${a}'`).join(', ')}`);
      }
    });
    return list as T[] | null | undefined;
  }
}
