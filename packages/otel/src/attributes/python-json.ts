import { ValidationError } from '@arclight/core';

/**
 * JSON text as Python's `json.dumps(value)` writes it with default arguments: `", "` and `": "` separators
 * and `ensure_ascii=True` (every non-ASCII UTF-16 unit escaped as `\uXXXX`). Upstream's emitters store
 * objects and non-primitive attribute values this way, so spans written here match spans written by Python
 * byte for byte (numbers aside: a JS number prints as JS prints it, e.g. `1e-7` where Python writes `1e-07`,
 * and an integral float such as `2.0` prints as `2`).
 *
 * Values are walked like `JSON.stringify` does (`toJSON` honoured, `undefined`/functions/symbols skipped in
 * objects and written as `null` in arrays, non-finite numbers as `null`). With `fallback` set, values JSON
 * cannot hold (bigint, Map, Set, functions, symbols at the top level) are written as `fallback(value)` (a
 * string), like Python's `default=str`; without it they raise `ValidationError`. Cycles always raise.
 */
export function pythonJsonDumps(
  value: unknown,
  options: { fallback?: (value: unknown) => string; what?: string } = {},
): string {
  const what = options.what ?? 'value';
  const seen = new Set<object>();

  const fail = (path: string, reason: string): never => {
    throw new ValidationError(`${what}${path} is not JSON serializable: ${reason}`);
  };

  const walk = (input: unknown, path: string, key: string): string | undefined => {
    let current = input;
    if (current !== null && typeof current === 'object' && 'toJSON' in current) {
      const toJSON = (current as { toJSON: unknown }).toJSON;
      if (typeof toJSON === 'function') current = toJSON.call(current, key);
    }
    switch (typeof current) {
      case 'string':
        return quote(current);
      case 'number':
        return Number.isFinite(current) ? String(current) : 'null';
      case 'boolean':
        return current ? 'true' : 'false';
      case 'undefined':
        return undefined;
      case 'function':
      case 'symbol':
        if (options.fallback) return quote(options.fallback(current));
        return undefined;
      case 'bigint':
        if (options.fallback) return quote(options.fallback(current));
        return fail(path, 'BigInt values cannot be written as JSON');
    }
    if (current === null) return 'null';
    const object = current as object;
    if (object instanceof Map || object instanceof Set) {
      if (options.fallback) return quote(options.fallback(object));
      return fail(path, `a ${object.constructor.name} cannot be written as JSON`);
    }
    if (seen.has(object)) fail(path, 'it contains a circular reference');
    seen.add(object);
    try {
      if (Array.isArray(object)) {
        const items = object.map((item, i) => walk(item, `${path}[${i}]`, String(i)) ?? 'null');
        return `[${items.join(', ')}]`;
      }
      const entries: string[] = [];
      for (const [k, v] of Object.entries(object)) {
        const text = walk(v, `${path}.${k}`, k);
        if (text !== undefined) entries.push(`${quote(k)}: ${text}`);
      }
      return `{${entries.join(', ')}}`;
    } finally {
      seen.delete(object);
    }
  };

  const text = walk(value, '', '');
  return text ?? 'null';
}

/** A JSON string literal with every non-ASCII UTF-16 unit escaped (Python `ensure_ascii=True`). */
function quote(text: string): string {
  return JSON.stringify(text).replace(
    /[\u007f-\uffff]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
