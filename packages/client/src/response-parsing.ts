import {
  type Attempt,
  type AttemptedRollout,
  type PaginatedResult,
  parseAttempt,
  parseAttemptedRollout,
  parseResourcesUpdate,
  parseRolloutOrAttempted,
  parseSpan,
  parseWorker,
  type ResourcesUpdate,
  type Rollout,
  type Span,
  StoreError,
  type Worker,
} from '@arclight/core';

/**
 * Server answers are validated with @arclight/core's parsers (so resources become class instances and
 * defaults are filled). A malformed answer is the server's fault, reported as a `StoreError` naming the route.
 */
type Parser<T> = (value: unknown) => T;

export function decode<T>(label: string, parse: Parser<T>, value: unknown): T {
  try {
    return parse(value);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new StoreError(`${label}: invalid response from the server: ${reason}`, { cause: error });
  }
}

export const asRollout: Parser<Rollout | AttemptedRollout> = (value) =>
  parseRolloutOrAttempted(value);

export const asAttemptedRollout: Parser<AttemptedRollout> = (value) => parseAttemptedRollout(value);

export const asAttempt: Parser<Attempt> = (value) => parseAttempt(value);
export const asResourcesUpdate: Parser<ResourcesUpdate> = (value) => parseResourcesUpdate(value);
export const asSpan: Parser<Span> = (value) => parseSpan(value);
export const asWorker: Parser<Worker> = (value) => parseWorker(value);

export const nullable =
  <T>(parse: Parser<T>): Parser<T | null> =>
  (value) =>
    value == null ? null : parse(value);

export const listOf =
  <T>(parse: Parser<T>): Parser<T[]> =>
  (value) => {
    if (!Array.isArray(value)) throw new Error(`expected a list, got ${typeof value}`);
    return value.map((item, i) => withIndex(i, () => parse(item)));
  };

export const paginated =
  <T>(parse: Parser<T>): Parser<PaginatedResult<T>> =>
  (value) => {
    if (value == null || typeof value !== 'object') throw new Error('expected a paginated result');
    const page = value as Record<string, unknown>;
    const items = listOf(parse)(page.items);
    return {
      items,
      limit: integer(page.limit, 'limit'),
      offset: integer(page.offset, 'offset'),
      total: integer(page.total, 'total'),
    };
  };

export const asSequenceId: Parser<number> = (value) => {
  if (value == null || typeof value !== 'object') throw new Error('expected {"sequence_id": int}');
  return integer((value as Record<string, unknown>).sequence_id, 'sequence_id');
};

export const asObject: Parser<Record<string, unknown>> = (value) => {
  if (value == null || typeof value !== 'object' || Array.isArray(value)) {
    throw new Error('expected a JSON object');
  }
  return value as Record<string, unknown>;
};

function integer(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw new Error(`${field}: expected an integer, got ${JSON.stringify(value)}`);
  }
  return value;
}

function withIndex<T>(index: number, run: () => T): T {
  try {
    return run();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`items[${index}]: ${reason}`, { cause: error });
  }
}
