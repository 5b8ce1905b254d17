import {
  type EnqueueRolloutRequest,
  type NamedResources,
  parseEnqueueRolloutRequest,
  parseNamedResources,
  parseRolloutConfig,
  parseSpan,
  type RolloutConfig,
  type Span,
  ValidationError,
} from '@arclight/core';
import { unprocessable } from './errors.js';
import type { Fields } from './fields.js';

/** Runs a core schema parser on request data: its `ValidationError` is a body-validation 422 here. */
function asRequestSchema<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof ValidationError) throw unprocessable(error.message);
    throw error;
  }
}

/** A `RolloutConfig` field (absent → undefined, null → null); partial configs take upstream's defaults. */
export function readRolloutConfig(fields: Fields, key: string): RolloutConfig | null | undefined {
  const value = fields.raw(key);
  if (value === undefined || value === null) return value;
  return asRequestSchema(() => parseRolloutConfig(value, `${fields.where}.${key}`));
}

export const readEnqueueRequest = (value: unknown, label: string): EnqueueRolloutRequest =>
  asRequestSchema(() => parseEnqueueRolloutRequest(value, label));

/** A body that is a `NamedResources` mapping. */
export function readNamedResources(body: unknown): NamedResources {
  if (body === undefined) throw unprocessable('body: Field required');
  return asRequestSchema(() => parseNamedResources(body, 'body'));
}

/** A body that is a `Span` (unknown keys kept, like upstream's `extra="allow"`). */
export function readSpan(body: unknown): Span {
  if (body === undefined) throw unprocessable('body: Field required');
  return asRequestSchema(() => parseSpan(body, 'body'));
}
