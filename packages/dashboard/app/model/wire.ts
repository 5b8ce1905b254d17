// The store's wire objects as the dashboard reads them (snake_case, as upstream's JSON).
export type {
  Attempt,
  AttemptedRollout,
  PaginatedResult,
  ResourcesUpdate,
  Rollout,
  Span,
  Worker,
} from '@arclight/core';
