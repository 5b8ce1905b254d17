import {
  FILTER_LOGICS,
  type FilterLogic,
  MODEL_FIELDS,
  type ModelName,
  SORT_ORDERS,
  type SortOrder,
} from '@arclight/core';
import { badRequest } from './errors.js';
import type { Fields } from './fields.js';

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

/** Reads `filter_logic` (default `and`); other values → 400. */
export function readFilterLogic(fields: Fields): FilterLogic {
  const value = fields.raw('filter_logic') ?? 'and';
  if (!(FILTER_LOGICS as readonly unknown[]).includes(value)) {
    throw badRequest(`Invalid filter_logic: ${String(value)}, allowed values are: and, or`);
  }
  return value as FilterLogic;
}
