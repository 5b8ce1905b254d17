/**
 * Deep pages without OFFSET, for every SQL backend. An OFFSET makes the database step over every row before the
 * page: reading 1,000,000 rollouts 100 at a time (an export, a dashboard's last pages) steps over 5 × 10^9 rows
 * in all. So when a full page of an ordered query ends, the place of its last row in that order (sort value and
 * insertion key) is kept with the total and with a change token of the data it was read from; a request for the
 * next page of the same query, read under the same token, starts right after that row through the order's index
 * and takes the total as it was. A backend whose token changes with every write that could be visible (SQLite:
 * `total_changes()`, rollbacks and `data_version`; PostgreSQL: the snapshot) falls back to LIMIT/OFFSET after any
 * write in between, so every page is exactly the page the OFFSET gives.
 */

/** Where a full page ended: the next page's offset, the token it was read under, its last row's place, the total. */
export interface PageEnd {
  offset: number;
  token: string;
  /** The last row's sort value and insertion key, as the backend read them. */
  key: unknown;
  pk: unknown;
  total: number;
}

/** The ends of the most recent full pages, by query (its SQL and parameters); at most `capacity` of them. */
export class PageEnds {
  private readonly ends = new Map<string, PageEnd>();

  constructor(private readonly capacity = 32) {}

  /**
   * The cache key of a query, or undefined when a parameter is not a string, a finite number, null or a list of
   * those (a key made of such values alone is unambiguous as JSON).
   */
  static keyOf(sql: string, params: readonly unknown[]): string | undefined {
    const plain = (value: unknown): boolean =>
      value === null ||
      typeof value === 'string' ||
      (typeof value === 'number' && Number.isFinite(value));
    for (const param of params) {
      if (!plain(param) && !(Array.isArray(param) && param.every(plain))) return undefined;
    }
    return JSON.stringify([sql, params]);
  }

  /** The end of the page of `key` right before `offset`, if one is kept (the caller checks its token). */
  at(key: string, offset: number): PageEnd | undefined {
    const end = this.ends.get(key);
    return end?.offset === offset ? end : undefined;
  }

  keep(key: string, end: PageEnd): void {
    this.ends.delete(key);
    if (this.ends.size >= this.capacity) {
      const oldest = this.ends.keys().next().value;
      if (oldest !== undefined) this.ends.delete(oldest);
    }
    this.ends.set(key, end);
  }
}
