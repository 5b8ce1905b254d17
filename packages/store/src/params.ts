import {
  ATTEMPT_STATUSES,
  FILTER_LOGICS,
  type FilterLogic,
  ROLLOUT_MODES,
  ROLLOUT_STATUSES,
  type RolloutMode,
  SORT_ORDERS,
  type Span,
  ValidationError,
  WORKER_STATUSES,
} from '@arclight/core';
import { type PageQuery, SORTABLE_FIELDS } from './backend.js';
import type { PageParams } from './lightning-store.js';

/** Validation of store-method parameters. Every error names the offending field. */

export const invalid = (field: string, problem: string): ValidationError =>
  new ValidationError(`${field}: ${problem}`);

export function oneOf<T extends string>(field: string, value: unknown, allowed: readonly T[]): T {
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value))
    return value as T;
  throw new ValidationError(
    `${field}: expected one of ${allowed.map((a) => JSON.stringify(a)).join(' | ')}, got ${describe(value)}`,
  );
}

export function optionalOneOf<T extends string>(
  field: string,
  value: unknown,
  allowed: readonly T[],
): T | null {
  return value == null ? null : oneOf(field, value, allowed);
}

export function listOf<T extends string>(
  field: string,
  value: unknown,
  allowed?: readonly T[],
): T[] | null {
  if (value == null) return null;
  if (!Array.isArray(value))
    throw new ValidationError(`${field}: expected a list, got ${describe(value)}`);
  return value.map((v, i) =>
    allowed ? oneOf(`${field}[${i}]`, v, allowed) : (requireString(`${field}[${i}]`, v) as T),
  );
}

export function requireString(field: string, value: unknown): string {
  if (typeof value !== 'string')
    throw new ValidationError(`${field}: expected a string, got ${describe(value)}`);
  return value;
}

export function optionalString(field: string, value: unknown): string | null {
  return value == null ? null : requireString(field, value);
}

export function optionalRecord(field: string, value: unknown): Record<string, unknown> | null {
  if (value == null) return null;
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new ValidationError(`${field}: expected an object, got ${describe(value)}`);
  }
  return value as Record<string, unknown>;
}

export function optionalNumber(field: string, value: unknown): number | null {
  if (value == null) return null;
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new ValidationError(`${field}: expected a finite number, got ${describe(value)}`);
  }
  return value;
}

export const mode = (value: unknown): RolloutMode | null =>
  optionalOneOf('mode', value, ROLLOUT_MODES);
export const rolloutStatus = (value: unknown) => oneOf('status', value, ROLLOUT_STATUSES);
export const attemptStatus = (value: unknown) => oneOf('status', value, ATTEMPT_STATUSES);
export const rolloutStatusList = (value: unknown) => listOf('status_in', value, ROLLOUT_STATUSES);
export const workerStatusList = (value: unknown) => listOf('status_in', value, WORKER_STATUSES);
export const filterLogic = (value: unknown): FilterLogic =>
  value == null ? 'and' : oneOf('filter_logic', value, FILTER_LOGICS);

/** Validates pagination and sorting. `undefined` sort_by takes `defaultSortBy`; null means insertion order. */
export function pageQuery(
  params: PageParams,
  sortable: readonly string[],
  defaultSortBy: string | null,
): PageQuery {
  const sortBy = params.sort_by === undefined ? defaultSortBy : params.sort_by;
  if (sortBy !== null && !sortable.includes(sortBy)) {
    throw new ValidationError(
      `sort_by: "${sortBy}" is not a sortable field; expected one of ${sortable.join(', ')}`,
    );
  }
  const limit = params.limit ?? -1;
  if (!Number.isInteger(limit) || limit === 0 || limit < -1) {
    throw new ValidationError(
      `limit: expected -1 (no limit) or a positive integer, got ${describe(limit)}`,
    );
  }
  const offset = params.offset ?? 0;
  if (!Number.isInteger(offset) || offset < 0) {
    throw new ValidationError(`offset: expected a non-negative integer, got ${describe(offset)}`);
  }
  const sortOrder =
    params.sort_order == null ? 'asc' : oneOf('sort_order', params.sort_order, SORT_ORDERS);
  return { sort_by: sortBy, sort_order: sortOrder, limit, offset };
}

export { SORTABLE_FIELDS };

/** Cheap structural checks of a span on the write path (full schema validation happens at the wire). */
export function checkSpan(span: Span, label: string): void {
  if (span == null || typeof span !== 'object')
    throw new ValidationError(`${label}: expected a span object`);
  for (const key of ['rollout_id', 'attempt_id', 'trace_id', 'span_id', 'name'] as const) {
    if (typeof span[key] !== 'string' || span[key] === '') {
      throw new ValidationError(
        `${label}.${key}: expected a non-empty string, got ${describe(span[key])}`,
      );
    }
  }
  if (!Number.isInteger(span.sequence_id)) {
    throw new ValidationError(
      `${label}.sequence_id: expected an integer, got ${describe(span.sequence_id)}`,
    );
  }
}

export function describe(value: unknown): string {
  if (value === undefined) return 'undefined';
  try {
    const text = JSON.stringify(value);
    return text.length > 80 ? `${text.slice(0, 77)}...` : text;
  } catch {
    return String(value);
  }
}
