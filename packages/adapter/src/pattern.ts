import { ValidationError } from '@arclight/core';

/** A span-name or agent-name pattern: a `RegExp`, or a string compiled with `new RegExp(string)`. */
export type Pattern = string | RegExp;

/** Compiles a pattern once; `field` names the option in error messages. */
export function compilePattern(pattern: Pattern, field: string): RegExp {
  if (pattern instanceof RegExp) return pattern;
  if (typeof pattern !== 'string') {
    throw new ValidationError(`${field}: expected a string or RegExp, got ${typeof pattern}`);
  }
  try {
    return new RegExp(pattern);
  } catch (error) {
    throw new ValidationError(`${field}: invalid regular expression ${JSON.stringify(pattern)}`, {
      cause: error,
    });
  }
}

/**
 * Python's `re.search(pattern, text) is not None`: a match anywhere in the text. `String#search` ignores
 * `lastIndex`, so `g` patterns are safe to reuse.
 */
export function searches(pattern: RegExp, text: string): boolean {
  return text.search(pattern) !== -1;
}
