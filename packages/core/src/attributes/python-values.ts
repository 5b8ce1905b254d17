import { isPlainRecord } from './unflatten.js';

/** Python's truthiness of a JSON value: `null`, `false`, `0`, `""`, `[]` and `{}` are falsy. */
export function pythonTruthy(value: unknown): boolean {
  if (value === null || value === undefined || value === false || value === 0 || value === '') {
    return false;
  }
  if (Array.isArray(value)) return value.length > 0;
  if (isPlainRecord(value)) return Object.keys(value).length > 0;
  return true;
}

/** Python's float literal syntax (what Pydantic's lax `float` accepts from a string). */
const PY_FLOAT =
  /^[+-]?(?:(?:\d(?:_?\d)*(?:\.(?:\d(?:_?\d)*)?)?|\.\d(?:_?\d)*)(?:[eE][+-]?\d(?:_?\d)*)?|inf(?:inity)?|nan)$/i;

/** Pydantic's lax `float` validation: numbers, booleans (1.0 / 0.0) and Python float strings; else `null`. */
export function coercePythonFloat(value: unknown): number | null {
  if (typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value !== 'string') return null;
  const text = value.trim();
  if (!PY_FLOAT.test(text)) return null;
  const unsigned = text.toLowerCase().replace(/^[+-]/, '');
  if (unsigned.startsWith('inf')) return text.startsWith('-') ? -Infinity : Infinity;
  if (unsigned === 'nan') return Number.NaN;
  return Number(text.replaceAll('_', ''));
}
