import type * as z from 'zod';
import { ValidationError } from '../errors.js';

/** At most this many issues are spelled out in one error message. */
const MAX_ISSUES = 3;
const MAX_SHOWN_STRING = 60;
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

const EXPECTED_NAMES: Record<string, string> = {
  int: 'integer',
  record: 'object',
  nonoptional: 'a value',
};

/** Renders `label` plus a zod path as `label.a.b[0]["dotted.key"]`. */
export function formatPath(label: string, path: readonly PropertyKey[]): string {
  let out = label;
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else if (typeof key === 'string' && IDENTIFIER.test(key)) out += out === '' ? key : `.${key}`;
    else out += `[${JSON.stringify(String(key))}]`;
  }
  return out === '' ? 'value' : out;
}

/** A short human description of a received value: strings and scalars literally, containers by kind. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (typeof value === 'string') {
    const shown = value.length > MAX_SHOWN_STRING ? `${value.slice(0, MAX_SHOWN_STRING)}…` : value;
    return JSON.stringify(shown);
  }
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let current: unknown = root;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

function quoteAll(values: readonly unknown[]): string {
  return values.map((v) => JSON.stringify(v) ?? String(v)).join(' | ');
}

function describeIssue(issue: z.core.$ZodIssue, got: unknown, present: boolean): string {
  const gotText = `got ${describeValue(got)}`;
  switch (issue.code) {
    case 'invalid_type': {
      const expected = EXPECTED_NAMES[issue.expected] ?? issue.expected;
      if (!present)
        return issue.expected === 'nonoptional' ? 'required' : `required (expected ${expected})`;
      return `expected ${expected}, ${gotText}`;
    }
    case 'invalid_value': {
      const wanted =
        issue.values.length === 1 ? quoteAll(issue.values) : `one of ${quoteAll(issue.values)}`;
      return present ? `expected ${wanted}, ${gotText}` : `required (expected ${wanted})`;
    }
    case 'invalid_union':
      if (issue.discriminator !== undefined && 'options' in issue && issue.options) {
        const wanted = `one of ${quoteAll(issue.options)}`;
        return present ? `expected ${wanted}, ${gotText}` : `required (expected ${wanted})`;
      }
      return `${issue.message}, ${gotText}`;
    case 'too_small':
      return `expected ${issue.origin} ${issue.inclusive ? '>=' : '>'} ${String(issue.minimum)}, ${gotText}`;
    case 'too_big':
      return `expected ${issue.origin} ${issue.inclusive ? '<=' : '<'} ${String(issue.maximum)}, ${gotText}`;
    default:
      return issue.message;
  }
}

/**
 * One message for a failed parse, naming each offending field path, e.g.
 * `span.status.status_code: expected one of "UNSET" | "OK" | "ERROR", got "BAD"`.
 */
export function formatZodError(error: z.core.$ZodError, input: unknown, label = ''): string {
  const parts: string[] = [];
  for (const issue of error.issues.slice(0, MAX_ISSUES)) {
    // Discriminator issues point at the parent object; name the discriminator key itself.
    const path =
      issue.code === 'invalid_union' &&
      issue.discriminator !== undefined &&
      issue.path.at(-1) !== issue.discriminator
        ? [...issue.path, issue.discriminator]
        : issue.path;
    const parent = valueAt(input, path.slice(0, -1));
    const last = path.at(-1);
    const present =
      last === undefined ||
      (parent !== null &&
        typeof parent === 'object' &&
        Object.hasOwn(parent, last) &&
        valueAt(parent, [last]) !== undefined);
    parts.push(
      `${formatPath(label, path)}: ${describeIssue(issue, valueAt(input, path), present)}`,
    );
  }
  const more = error.issues.length - MAX_ISSUES;
  return parts.join('; ') + (more > 0 ? ` (and ${more} more)` : '');
}

/** Parses `value` with `schema`, throwing a `ValidationError` whose message names the offending fields. */
export function parseWith<T extends z.core.$ZodType>(
  schema: T,
  value: unknown,
  label: string,
): z.output<T> {
  const result = (schema as unknown as z.ZodType<z.output<T>>).safeParse(value);
  if (result.success) return result.data;
  throw new ValidationError(formatZodError(result.error, value, label), { cause: result.error });
}
