import type {
  Attempt,
  AttemptedRollout,
  AttemptStatus,
  ResourcesUpdate,
  StoreError,
} from '@arclight/core';
import { errorFromResponse } from './http-errors.js';
import type { HttpRequest } from './http-transport.js';
import * as res from './response-parsing.js';

/** Path of Arclight's one-request runner turn (`packages/server/src/routes/extensions.ts`). */
export const RUNNER_CYCLE_PATH = '/v1/agl/x-arclight/runner/cycle';
/** The extension's name in `GET /v1/agl/x-arclight/capabilities`. */
export const RUNNER_CYCLE_EXTENSION = 'runner-cycle';

/** The outcome of the previous rollout, sent as `updateAttempt(rollout_id, attempt_id, { status, metadata })`. */
export interface AttemptOutcome {
  rollout_id: string;
  attempt_id: string;
  status: AttemptStatus;
  metadata?: Record<string, unknown>;
}

/** A runner's turn between two rollouts. */
export interface RunnerCycleParams {
  worker_id: string;
  /** The previous rollout's outcome, applied first. */
  finish?: AttemptOutcome | null;
  /** Dequeue the next rollout (default true). */
  dequeue?: boolean;
}

export interface RunnerCycleResult {
  /** The finished attempt (`null` without `finish` or when the update failed). */
  finished: Attempt | null;
  /** Why the `finish` update failed; the rest of the turn still ran. */
  finishError: StoreError | null;
  /** The dequeued rollout, `null` when the queue was empty (or not asked). */
  rollout: AttemptedRollout | null;
  /**
   * The dequeued rollout's resources (by its `resources_id`, else the latest; `null`: none found), when the
   * server sent them along; `undefined` when the caller has to fetch them (the v0.x fallback).
   */
  resources?: ResourcesUpdate | null;
  /** Whether the turn took one request (the extension) rather than the v0.x routes. */
  extension: boolean;
}

/** The extension request. */
export function runnerCycleRequest(params: RunnerCycleParams): HttpRequest {
  const json: Record<string, unknown> = { worker_id: params.worker_id };
  if (params.finish) {
    const { rollout_id, attempt_id, status, metadata } = params.finish;
    json.finish = metadata
      ? { rollout_id, attempt_id, status, metadata }
      : { rollout_id, attempt_id, status };
  }
  if (params.dequeue === false) json.dequeue = false;
  return { method: 'POST', path: RUNNER_CYCLE_PATH, json };
}

/** Reads the extension's answer. */
export function parseRunnerCycleAnswer(value: unknown): RunnerCycleResult {
  const body = res.asObject(value);
  const finishError = body.finish_error as { status?: unknown; detail?: unknown } | null;
  return {
    finished: res.nullable(res.asAttempt)(body.finished ?? null),
    finishError: finishError
      ? errorFromResponse(
          typeof finishError.status === 'number' ? finishError.status : 500,
          `POST ${RUNNER_CYCLE_PATH} (finish)`,
          JSON.stringify({ detail: finishError.detail }),
        )
      : null,
    rollout: res.nullable(res.asAttemptedRollout)(body.rollout ?? null),
    resources: res.nullable(res.asResourcesUpdate)(body.resources ?? null),
    extension: true,
  };
}

/** Reads `GET /v1/agl/x-arclight/capabilities`: the extension names. */
export function parseCapabilities(value: unknown): Set<string> {
  const list = (value as { extensions?: unknown } | null)?.extensions;
  return new Set(Array.isArray(list) ? list.filter((x) => typeof x === 'string') : []);
}
