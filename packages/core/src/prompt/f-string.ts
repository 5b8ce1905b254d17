import { ValidationError } from '../errors.js';
import { applyFormatSpec } from './format-spec.js';

/**
 * Python `template.format(**values)`: named replacement fields with attribute (`{user.name}`) and index
 * (`{items[0]}`, `{row[key]}`) access, `!s`/`!r`/`!a` conversions, the format-spec mini-language
 * (`{score:.2f}`, `{name:>10}`), and `{{`/`}}` escapes. Positional fields (`{}`, `{0}`) and nested fields in
 * format specs are rejected, as are missing values — each with a `ValidationError` naming the field.
 */
export function formatFString(template: string, values: Readonly<Record<string, unknown>>): string {
  let out = '';
  let i = 0;
  while (i < template.length) {
    const ch = template[i];
    if (ch === '{') {
      if (template[i + 1] === '{') {
        out += '{';
        i += 2;
        continue;
      }
      const close = findFieldEnd(template, i + 1);
      if (close < 0)
        throw new ValidationError(`PromptTemplate: single '{' at position ${i} is not closed`);
      out += renderField(template.slice(i + 1, close), values);
      i = close + 1;
    } else if (ch === '}') {
      if (template[i + 1] !== '}') {
        throw new ValidationError(
          `PromptTemplate: single '}' at position ${i} must be written '}}'`,
        );
      }
      out += '}';
      i += 2;
    } else {
      const next = nextBrace(template, i);
      out += template.slice(i, next);
      i = next;
    }
  }
  return out;
}

function nextBrace(template: string, from: number): number {
  for (let j = from; j < template.length; j++) {
    const c = template[j];
    if (c === '{' || c === '}') return j;
  }
  return template.length;
}

/** Index of the `}` closing the field that starts at `start`, honouring `[...]` and nested braces. */
function findFieldEnd(template: string, start: number): number {
  let depth = 1;
  let inBracket = false;
  for (let j = start; j < template.length; j++) {
    const c = template[j];
    if (inBracket) {
      if (c === ']') inBracket = false;
    } else if (c === '[') inBracket = true;
    else if (c === '{') depth += 1;
    else if (c === '}') {
      depth -= 1;
      if (depth === 0) return j;
    }
  }
  return -1;
}

/** Splits `name[.attr|[key]]*[!conv][:spec]`; `!` and `:` inside brackets belong to the key. */
function splitField(field: string): { name: string; conversion: string | null; spec: string } {
  let inBracket = false;
  for (let j = 0; j < field.length; j++) {
    const c = field[j];
    if (inBracket) {
      if (c === ']') inBracket = false;
    } else if (c === '[') inBracket = true;
    else if (c === ':')
      return { name: field.slice(0, j), conversion: null, spec: field.slice(j + 1) };
    else if (c === '!') {
      const conversion = field[j + 1] ?? '';
      const after = field[j + 2];
      if (after !== undefined && after !== ':') {
        throw new ValidationError(`PromptTemplate: expected ':' after conversion in "{${field}}"`);
      }
      return { name: field.slice(0, j), conversion, spec: field.slice(j + 3) };
    }
  }
  return { name: field, conversion: null, spec: '' };
}

const FIELD_NAME = /^([^.[]*)((?:\.[^.[]+|\[[^\]]+\])*)$/;
const ACCESSOR = /\.([^.[]+)|\[([^\]]+)\]/g;

function lookup(name: string, field: string, values: Readonly<Record<string, unknown>>): unknown {
  const match = FIELD_NAME.exec(name);
  if (!match) throw new ValidationError(`PromptTemplate: invalid replacement field "{${field}}"`);
  const head = match[1] ?? '';
  if (head === '' || /^\d+$/.test(head)) {
    throw new ValidationError(
      `PromptTemplate: positional field "{${field}}" is not supported; use named fields`,
    );
  }
  if (!Object.hasOwn(values, head)) {
    throw new ValidationError(`PromptTemplate: missing value for field "${head}"`);
  }
  let value: unknown = values[head];
  let path = head;
  for (const accessor of (match[2] ?? '').matchAll(ACCESSOR)) {
    const key = accessor[1] ?? accessor[2] ?? '';
    if (value === null || value === undefined || !(key in Object(value))) {
      throw new ValidationError(
        `PromptTemplate: "${path}" has no ${accessor[1] ? 'attribute' : 'key'} "${key}"`,
      );
    }
    value = (value as Record<string, unknown>)[key];
    path += accessor[0];
  }
  return value;
}

/** What Python's `str()` would be for a JS value: strings as-is, arrays and plain objects as JSON. */
function toText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return JSON.stringify(value);
  if (
    value !== null &&
    typeof value === 'object' &&
    Object.getPrototypeOf(value) === Object.prototype
  ) {
    return JSON.stringify(value);
  }
  return String(value);
}

/** Python `repr()` of a string (single quotes unless only double quotes avoid escaping). */
function pythonRepr(value: unknown, asciiOnly: boolean): string {
  if (typeof value !== 'string') return toText(value);
  const quote = value.includes("'") && !value.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of value) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === '\\' || ch === quote) out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f || (asciiOnly && code > 0x7f && code < 0x100)) {
      out += `\\x${code.toString(16).padStart(2, '0')}`;
    } else if (asciiOnly && code > 0xff) {
      out +=
        code > 0xffff
          ? `\\U${code.toString(16).padStart(8, '0')}`
          : `\\u${code.toString(16).padStart(4, '0')}`;
    } else out += ch;
  }
  return out + quote;
}

function renderField(field: string, values: Readonly<Record<string, unknown>>): string {
  const { name, conversion, spec } = splitField(field);
  if (spec.includes('{')) {
    throw new ValidationError(
      `PromptTemplate: nested fields in format specs are not supported in "{${field}}"`,
    );
  }
  let value = lookup(name, field, values);
  if (conversion !== null) {
    if (conversion === 's') value = toText(value);
    else if (conversion === 'r' || conversion === 'a')
      value = pythonRepr(value, conversion === 'a');
    else
      throw new ValidationError(
        `PromptTemplate: unknown conversion "!${conversion}" in "{${field}}"`,
      );
  }
  return applyFormatSpec(value, toText(value), spec, field);
}
