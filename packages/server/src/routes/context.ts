import type { LightningStore } from '@arclight/store';
import type { RequestLimits } from '../http/limits.js';

/** What every route module receives. */
export interface RouteContext {
  store: LightningStore;
  /** Resolves when the server starts closing (long-polls answer early). */
  closing: Promise<void>;
  limits: RequestLimits;
}

/** Upstream's path prefixes. */
export const API_V1 = '/v1';
export const API_AGL = '/v1/agl';

export interface IdParams {
  rollout_id: string;
  attempt_id: string;
  worker_id: string;
  resources_id: string;
}
