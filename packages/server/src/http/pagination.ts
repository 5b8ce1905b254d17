import {
  FILTER_LOGICS,
  type FilterLogic,
  MODEL_FIELDS,
  type ModelName,
  type PaginatedResult,
  SORT_ORDERS,
  type SortOrder,
} from '@arclight/core';
import { badRequest } from './errors.js';
import type { Fields } from './fields.js';
import { LimitError, type RequestLimits } from './limits.js';

export interface PageRequest {
  limit: number;
  offset: number;
  sort_by: string | null;
  sort_order: SortOrder;
}

/**
 * Reads `limit`, `offset`, `sort_by`, `sort_order` and checks them like upstream's
 * `_validate_paginated_request` (400 with upstream's messages).
 */
export function readPage(
  fields: Fields,
  model: ModelName,
  defaultSortBy: string | null,
): PageRequest {
  const limit = fields.intOr('limit', -1);
  const offset = fields.intOr('offset', 0);
  const sortBy = fields.has('sort_by') ? (fields.string('sort_by') ?? null) : defaultSortBy;
  const sortOrder = fields.raw('sort_order') ?? 'asc';

  const allowed: readonly string[] = MODEL_FIELDS[model];
  if (sortBy !== null && !allowed.includes(sortBy)) {
    throw badRequest(`Invalid sort_by: ${sortBy}, allowed fields are: ${allowed.join(', ')}`);
  }
  if (!(SORT_ORDERS as readonly unknown[]).includes(sortOrder)) {
    throw badRequest(`Invalid sort_order: ${String(sortOrder)}, allowed values are: asc, desc`);
  }
  if (limit === 0 || limit < -1) {
    throw badRequest('limit: must be greater than 0, or -1 for no limit');
  }
  if (offset < 0) {
    throw badRequest('offset: must be greater than or equal to 0');
  }
  return { limit, offset, sort_by: sortBy, sort_order: sortOrder as SortOrder };
}

/**
 * A page read through `read` with at most `limits.maxItemsPerResponse` items in the answer. A page asked for
 * without a limit, or with a larger one, is read with one item more than the cap; when that many come back the
 * request is refused (413) rather than the server building an answer of any size (1,000,000 rollouts: gigabytes of
 * heap, or a string past V8's longest). The answer echoes the limit asked for.
 */
export async function boundedPage<P extends PaginatedResult<unknown> | null>(
  page: PageRequest,
  limits: RequestLimits,
  what: string,
  read: (page: PageRequest) => Promise<P>,
): Promise<P> {
  const cap = limits.maxItemsPerResponse;
  if (page.limit !== -1 && page.limit <= cap) return read(page);
  const result = await read({ ...page, limit: cap + 1 });
  if (result === null) return result; // a source without this page (see routes/spans.ts)
  if (result.items.length > cap) {
    throw new LimitError(
      413,
      'maxItemsPerResponse',
      cap,
      `A page of ${result.total - page.offset} ${what}`,
      'ask for them in pages (limit and offset)',
    );
  }
  return { ...result, limit: page.limit } as P;
}

/** Reads `filter_logic` (default `and`); other values → 400. */
export function readFilterLogic(fields: Fields): FilterLogic {
  const value = fields.raw('filter_logic') ?? 'and';
  if (!(FILTER_LOGICS as readonly unknown[]).includes(value)) {
    throw badRequest(`Invalid filter_logic: ${String(value)}, allowed values are: and, or`);
  }
  return value as FilterLogic;
}
