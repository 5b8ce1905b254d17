import * as z from 'zod';
import type { PaginatedResult } from '../types/paginated.js';
import { IntSchema } from './common.js';
import { parseWith } from './format-error.js';

/** The envelope of a paginated answer; items are validated separately by the caller's item parser. */
export const PaginatedEnvelopeSchema = z.object({
  items: z.array(z.unknown()),
  limit: IntSchema,
  offset: IntSchema,
  total: IntSchema,
});

/**
 * Validates `{items, limit, offset, total}` and parses each item with `parseItem`, whose errors name the
 * item (`result.items[3].status: …`).
 */
export function parsePaginatedResult<T>(
  value: unknown,
  parseItem: (item: unknown, label: string) => T,
  label = 'result',
): PaginatedResult<T> {
  const envelope = parseWith(PaginatedEnvelopeSchema, value, label);
  return {
    items: envelope.items.map((item, index) => parseItem(item, `${label}.items[${index}]`)),
    limit: envelope.limit,
    offset: envelope.offset,
    total: envelope.total,
  };
}
