import type { FilterLogic } from '@arclight/core';
import type { Page, PageQuery } from '../backend.js';

/**
 * Filtering, sorting and pagination of in-memory records, following upstream's in-memory collection
 * (`store/collection/memory.py`) as documented on `PageQuery` and the query types in `backend.ts`.
 */

export type Predicate<T> = (item: T) => boolean;

type FieldOf<T> = keyof T & string;

const field = <T>(item: T, name: string): unknown => (item as Record<string, unknown>)[name];

/**
 * Collects the conditions of one query. A condition whose expected value is null/undefined is ignored;
 * `combine` joins the rest with the filter logic.
 */
export class Conditions<T> {
  private readonly predicates: Predicate<T>[] = [];

  get count(): number {
    return this.predicates.length;
  }

  /** The field equals `expected`. */
  equals(name: FieldOf<T>, expected: unknown): this {
    if (expected != null) this.predicates.push((item) => field(item, name) === expected);
    return this;
  }

  /** The field is one of `allowed` (an empty list matches nothing). */
  within(name: FieldOf<T>, allowed: readonly unknown[] | null | undefined): this {
    if (allowed == null) return this;
    if (allowed.length === 0) {
      this.predicates.push(() => false);
    } else if (allowed.length === 1) {
      const only = allowed[0];
      this.predicates.push((item) => field(item, name) === only);
    } else {
      const set = new Set(allowed);
      this.predicates.push((item) => set.has(field(item, name)));
    }
    return this;
  }

  /** The field is a string containing `substring` (a null field never matches). */
  contains(name: FieldOf<T>, substring: string | null | undefined): this {
    if (substring == null) return this;
    this.predicates.push((item) => {
      const value = field(item, name);
      return typeof value === 'string' && value.includes(substring);
    });
    return this;
  }

  /** The combined predicate, or null when there is no condition (everything matches). */
  combine(logic: FilterLogic): Predicate<T> | null {
    const list = this.predicates.slice();
    if (list.length === 0) return null;
    if (list.length === 1) return list[0]!;
    if (logic === 'or') return (item) => list.some((p) => p(item));
    return (item) => list.every((p) => p(item));
  }
}

/** Both predicates must hold; null stands for "always true". */
export function both<T>(a: Predicate<T> | null, b: Predicate<T> | null): Predicate<T> | null {
  if (a === null) return b;
  if (b === null) return a;
  return (item) => a(item) && b(item);
}

/** Numeric fields whose null value sorts as 0 (every other non-`_time` field sorts null as ""). */
const NUMERIC_FIELDS: ReadonlySet<string> = new Set(['sequence_id', 'version']);

type SortKey = number | string;

function sortKey(value: unknown, name: string): SortKey {
  if (value == null) {
    if (name.endsWith('_time')) return Number.POSITIVE_INFINITY;
    return NUMERIC_FIELDS.has(name) ? 0 : '';
  }
  if (typeof value === 'number' || typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  return String(value);
}

/** Maps a UTF-16 code unit so that unit order equals code-point order (surrogates above U+FFFF). */
const codePointRank = (unit: number): number =>
  unit >= 0xe000 ? unit - 0x800 : unit >= 0xd800 ? unit + 0x2000 : unit;

/** Compares strings by Unicode code points, like Python's `str` ordering. */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) {
      return x >= 0xd800 && y >= 0xd800 ? codePointRank(x) - codePointRank(y) : x - y;
    }
  }
  return a.length - b.length;
}

function compareKeys(a: SortKey, b: SortKey): number {
  if (typeof a === 'number') {
    if (typeof b !== 'number') return -1;
    return a < b ? -1 : a > b ? 1 : 0;
  }
  if (typeof b === 'number') return 1;
  return compareStrings(a, b);
}

/**
 * Filters `candidates` (given in insertion order), sorts them when `sort_by` is set (stable, also when
 * descending) and returns the requested window; `total` counts every match. Only the returned items
 * pass through `copy`.
 */
export function paginate<T>(
  candidates: Iterable<T>,
  match: Predicate<T> | null,
  query: PageQuery,
  copy: (item: T) => T,
): Page<T> {
  const { sort_by: sortBy, limit, offset } = query;
  if (sortBy == null) {
    const items: T[] = [];
    let total = 0;
    for (const item of candidates) {
      if (match !== null && !match(item)) continue;
      total++;
      if (total > offset && (limit < 0 || items.length < limit)) items.push(copy(item));
    }
    return { items, total };
  }

  const matches: T[] = [];
  for (const item of candidates) if (match === null || match(item)) matches.push(item);
  return windowOf(sortItems(matches, sortBy, query.sort_order), query, copy);
}

/** The window `query` asks for out of `sorted`, each item through `take`; `total` counts them all. */
function windowOf<S, T>(sorted: readonly S[], query: PageQuery, take: (item: S) => T): Page<T> {
  const total = sorted.length;
  const end = query.limit < 0 ? total : Math.min(total, query.offset + query.limit);
  const items: T[] = [];
  for (let k = query.offset; k < end; k++) items.push(take(sorted[k]!));
  return { items, total };
}

/** `items` (in insertion order) sorted by `sortBy`, ties kept in insertion order in either direction. */
function sortItems<T>(items: T[], sortBy: string, sortOrder: PageQuery['sort_order']): T[] {
  const keys = items.map((item) => sortKey(field(item, sortBy), sortBy));
  const direction = sortOrder === 'desc' ? -1 : 1;
  const order = items.map((_, index) => index);
  order.sort((i, j) => direction * compareKeys(keys[i]!, keys[j]!) || i - j);
  return order.map((index) => items[index]!);
}

/**
 * Pages of a table sorted by a field, from sorts kept while the table's `version` stays the same, one per sort and
 * filter (the `capacity` most recently used): paging through a table (an export) or through the rollouts of some
 * statuses (the dashboard's filter) sorts once instead of once per page. Only the keys are kept, so no record a
 * later write replaced stays alive in the cache.
 */
export class SortedPages<T> {
  private readonly sorts = new Map<string, { version: number; keys: string[] }>();

  constructor(
    private readonly keyOf: (item: T) => string,
    private readonly lookup: (key: string) => T | undefined,
    private readonly capacity = 4,
  ) {}

  /**
   * The page `query` asks for of the `candidates` (in insertion order) that pass `match`. `filter` names the
   * conditions `match` checks (equal names, equal conditions); it is asked only for a sorted page (a waiting
   * client polls with thousands of ids, unsorted).
   */
  page(
    version: number,
    candidates: () => Iterable<T>,
    match: Predicate<T> | null,
    filter: () => string,
    query: PageQuery,
    copy: (item: T) => T,
  ): Page<T> {
    const { sort_by: sortBy, sort_order: order } = query;
    if (sortBy == null) return paginate(candidates(), match, query, copy);
    const key = JSON.stringify([sortBy, order, filter()]);
    let sorted = this.sorts.get(key);
    if (sorted?.version !== version) {
      const matches: T[] = [];
      for (const item of candidates()) if (match === null || match(item)) matches.push(item);
      sorted = { version, keys: sortItems(matches, sortBy, order).map(this.keyOf) };
    }
    this.sorts.delete(key); // most recently used last
    if (this.sorts.size >= this.capacity) this.sorts.delete(this.sorts.keys().next().value!);
    this.sorts.set(key, sorted);
    return windowOf(sorted.keys, query, (id) => copy(this.lookup(id)!));
  }

  clear(): void {
    this.sorts.clear();
  }
}
