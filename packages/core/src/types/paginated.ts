export interface PaginatedResult<T> {
  items: T[];
  limit: number;
  offset: number;
  total: number;
}

export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

export const FILTER_LOGICS = ['and', 'or'] as const;
export type FilterLogic = (typeof FILTER_LOGICS)[number];
