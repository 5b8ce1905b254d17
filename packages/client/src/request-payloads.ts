import type {
  EnqueueRolloutParams,
  PageParams,
  QueryAttemptsParams,
  QueryResourcesParams,
  QueryRolloutsParams,
  QuerySpansParams,
  QueryWorkersParams,
  StartRolloutParams,
  UpdateAttemptParams,
  UpdateRolloutParams,
} from '@arclight/store';
import { SPAN_FILTER_FIELDS } from '@arclight/store';
import type { QueryParams } from './http-transport.js';

/**
 * Request bodies as upstream's Python client builds them: optional filters only when given, `sort_order`
 * only with a `sort_by`, and update bodies with only the keys the caller set (absent = unchanged,
 * `null` = clear).
 */
type Body = Record<string, unknown>;

/** `RolloutRequest`: every field present, `null` when not given (upstream sends `exclude_none=False`). */
export function startRolloutBody(params: StartRolloutParams): Body {
  return { ...enqueueRolloutBody(params), worker_id: params.worker_id ?? null };
}

/** `EnqueueRolloutRequest`: every field present, `null` when not given. */
export function enqueueRolloutBody(params: EnqueueRolloutParams): Body {
  return {
    input: params.input ?? null,
    mode: params.mode ?? null,
    resources_id: params.resources_id ?? null,
    config: params.config ?? null,
    metadata: params.metadata ?? null,
  };
}

function setIfGiven(body: Body, key: string, value: unknown): void {
  if (value !== undefined && value !== null) body[key] = value;
}

function page(params: PageParams, defaultSortBy: string | null): Body {
  const body: Body = { limit: params.limit ?? -1, offset: params.offset ?? 0 };
  const sortBy = params.sort_by === undefined ? defaultSortBy : params.sort_by;
  if (sortBy != null) body.sort_by = sortBy;
  // Sent whenever given, so that the server validates it even without sort_by.
  if (sortBy != null || params.sort_order != null) body.sort_order = params.sort_order ?? 'asc';
  return body;
}

export function queryRolloutsBody(params: QueryRolloutsParams = {}): Body {
  const body = page(params, null);
  setIfGiven(body, 'status_in', params.status_in);
  setIfGiven(body, 'rollout_id_in', params.rollout_id_in);
  setIfGiven(body, 'rollout_id_contains', params.rollout_id_contains);
  body.filter_logic = params.filter_logic ?? 'and';
  return body;
}

export function queryAttemptsBody(params: QueryAttemptsParams = {}): Body {
  return page(params, 'sequence_id');
}

/** `query_resources` is the one query upstream's client sends as GET query parameters. */
export function queryResourcesQuery(params: QueryResourcesParams = {}): QueryParams {
  const query: QueryParams = [
    ['limit', params.limit ?? -1],
    ['offset', params.offset ?? 0],
  ];
  if (params.sort_by != null) query.push(['sort_by', params.sort_by]);
  if (params.sort_by != null || params.sort_order != null) {
    query.push(['sort_order', params.sort_order ?? 'asc']);
  }
  if (params.resources_id != null) query.push(['resources_id', params.resources_id]);
  if (params.resources_id_contains != null) {
    query.push(['resources_id_contains', params.resources_id_contains]);
  }
  return query;
}

const SPAN_FILTERS = ['attempt_id', ...SPAN_FILTER_FIELDS] as const;

export function querySpansBody(rolloutId: string, params: QuerySpansParams = {}): Body {
  const body: Body = { rollout_id: rolloutId, ...page(params, 'sequence_id') };
  for (const key of SPAN_FILTERS) setIfGiven(body, key, params[key]);
  body.filter_logic = params.filter_logic ?? 'and';
  return body;
}

/** Unlike upstream's client (which drops them), `limit`/`offset` are sent so paging works. */
export function queryWorkersBody(params: QueryWorkersParams = {}): Body {
  const body = page(params, null);
  setIfGiven(body, 'status_in', params.status_in);
  setIfGiven(body, 'worker_id_contains', params.worker_id_contains);
  body.filter_logic = params.filter_logic ?? 'and';
  return body;
}

const ROLLOUT_UPDATE_KEYS = [
  'input',
  'mode',
  'resources_id',
  'status',
  'config',
  'metadata',
] as const;
const ATTEMPT_UPDATE_KEYS = ['status', 'worker_id', 'last_heartbeat_time', 'metadata'] as const;

export function updateRolloutBody(params: UpdateRolloutParams): Body {
  return onlySetKeys(params, ROLLOUT_UPDATE_KEYS);
}

export function updateAttemptBody(params: UpdateAttemptParams): Body {
  return onlySetKeys(params, ATTEMPT_UPDATE_KEYS);
}

function onlySetKeys<T extends object>(params: T, keys: readonly (keyof T & string)[]): Body {
  const body: Body = {};
  for (const key of keys) {
    if (Object.hasOwn(params, key) && params[key] !== undefined) body[key] = params[key];
  }
  return body;
}
