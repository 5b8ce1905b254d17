import { AttributeBag, type AttributeEncoding } from '@arclight/core';
import { safeJson } from '@arclight/instrumentation';

/**
 * Span data holds whatever the SDK and the provider put there: JSON never throws (even on hostile values),
 * strings given as JSON stay as they are, and number arrays with non-finite numbers become JSON.
 */
export const AGENTS_ENCODING: AttributeEncoding = Object.freeze({
  toJson: (value: unknown) => (typeof value === 'string' ? value : safeJson(value)),
  finiteNumberArrays: true,
});

/** An attribute bag for Agents SDK spans (see {@link AGENTS_ENCODING}). */
export function newAttributeBag(): AttributeBag {
  return new AttributeBag(AGENTS_ENCODING);
}
