import {
  type Attempt,
  type AttemptedRollout,
  type EnqueueRolloutRequest,
  FINISHED_STATUSES,
  generateAttemptId,
  generateResourcesId,
  generateRolloutId,
  isFinished,
  isQueuing,
  type NamedResources,
  NotFoundError,
  normalizeRolloutConfig,
  type PaginatedResult,
  parseNamedResources,
  type ResourcesUpdate,
  type Rollout,
  type Span,
  type Worker,
} from '@arclight/core';
import type { Page, PageQuery } from './backend.js';
import type {
  DequeueManyParams,
  UpdateWorkerParams,
  WaitForRolloutsParams,
} from './lightning-store.js';
import * as p from './params.js';

/**
 * The record-level rules of the store semantics as pure functions over records, shared by every
 * LightningStore implementation (the synchronous in-memory / SQLite stores and the asynchronous PostgreSQL
 * one): each store reads and writes the rows its own way and calls these for what happens to them.
 */

// ------------------------------------------------------------------ new records

/** A new rollout from an enqueue/start request (validated; `label` names the request in errors). */
export function newRolloutRecord(
  request: EnqueueRolloutRequest,
  status: 'queuing' | 'preparing',
  latestResourcesId: string | null,
  now: number,
  label = 'rollout',
): Rollout {
  if (request == null || typeof request !== 'object' || !('input' in request)) {
    throw p.invalid(`${label}.input`, 'is required');
  }
  const resourcesId =
    p.optionalString(`${label}.resources_id`, request.resources_id) ?? latestResourcesId;
  return {
    rollout_id: generateRolloutId(),
    input: request.input,
    start_time: now,
    end_time: null,
    mode: p.optionalOneOf(`${label}.mode`, request.mode, ['train', 'val', 'test'] as const),
    resources_id: resourcesId,
    status,
    config: normalizeRolloutConfig(request.config, `${label}.config`),
    metadata: { ...(p.optionalRecord(`${label}.metadata`, request.metadata) ?? {}) },
  };
}

/** The label of the `i`th of `count` enqueued rollouts in errors. */
export const enqueueLabel = (i: number, count: number): string =>
  count === 1 ? 'rollout' : `rollouts[${i}]`;

/** A new `preparing` attempt. */
export function newAttemptRecord(
  rolloutId: string,
  sequenceId: number,
  workerId: string | null,
  now: number,
): Attempt {
  return {
    rollout_id: rolloutId,
    attempt_id: generateAttemptId(),
    sequence_id: sequenceId,
    start_time: now,
    end_time: null,
    status: 'preparing',
    worker_id: workerId,
    last_heartbeat_time: null,
    metadata: null,
  };
}

/** `addResources` (no `existing` id) or `updateResources` (upstream upserts: an unknown id starts at version 1). */
export function resourcesRecord(
  resources: NamedResources,
  now: number,
  target?: { resourcesId: string; existing: ResourcesUpdate | undefined },
): ResourcesUpdate {
  const existing = target?.existing;
  return {
    resources_id: target?.resourcesId ?? generateResourcesId(),
    create_time: existing?.create_time ?? now,
    update_time: now,
    version: existing ? existing.version + 1 : 1,
    resources,
  };
}

// ------------------------------------------------------------------ transitions

/** What a store does after `applyRolloutChanges`, besides writing the rollout. */
export interface RolloutChangeEffects {
  /** The rollout reached a terminal status: wake its waiters after commit. */
  finished: boolean;
  /** The rollout entered a queuing status: put it in the queue unless it is there. */
  enqueue: boolean;
}

/** Applies rollout field changes in place: end time on terminal statuses. */
export function applyRolloutChanges(
  rollout: Rollout,
  changes: Partial<Rollout>,
  now: number,
): RolloutChangeEffects {
  Object.assign(rollout, changes);
  const effects = { finished: false, enqueue: false };
  if (changes.status !== undefined) {
    if (FINISHED_STATUSES.includes(changes.status)) {
      rollout.end_time = now;
      effects.finished = true;
    }
    effects.enqueue = isQueuing(changes.status);
  }
  return effects;
}

/**
 * Applies attempt field changes in place (end time on succeeded/failed); returns whether the attempt's
 * worker must be synced (a worker was assigned, or the status changed under one).
 */
export function applyAttemptChanges(
  attempt: Attempt,
  changes: Partial<Attempt>,
  now: number,
): boolean {
  let syncWorker = false;
  if (changes.worker_id !== undefined) {
    attempt.worker_id = changes.worker_id;
    syncWorker = Boolean(changes.worker_id);
  }
  if (changes.status !== undefined) {
    attempt.status = changes.status;
    if (changes.status === 'failed' || changes.status === 'succeeded') attempt.end_time = now;
    syncWorker ||= Boolean(attempt.worker_id);
  }
  if (changes.last_heartbeat_time !== undefined)
    attempt.last_heartbeat_time = changes.last_heartbeat_time;
  if (changes.metadata !== undefined) attempt.metadata = changes.metadata;
  return syncWorker;
}

/** A new attempt of a rollout: the rollout becomes `preparing`. */
export function attemptStarted(rollout: Rollout, attempt: Attempt): AttemptedRollout {
  rollout.status = 'preparing';
  return { ...rollout, attempt };
}

/** The attempt an `updateAttempt` names (`latest` or an id; `found` is asked only for an earlier one), or NotFoundError. */
export function targetAttempt(
  rolloutId: string,
  attemptId: string,
  latest: Attempt | undefined,
  found: (attemptId: string) => Attempt | undefined,
): Attempt {
  if (!latest) throw new NotFoundError(`rollout ${rolloutId} has no attempts`);
  const attempt =
    attemptId === 'latest' || attemptId === latest.attempt_id ? latest : found(attemptId);
  if (!attempt) throw new NotFoundError(`attempt ${attemptId} not found for rollout ${rolloutId}`);
  return attempt;
}

// ------------------------------------------------------------------ spans as heartbeats

/** The key of a (rollout, attempt) pair in maps. */
export const attemptKey = (rolloutId: string, attemptId: string): string =>
  `${rolloutId}\u0000${attemptId}`;

/** The attempts a span batch touches, and the highest sequence id per rollout. */
export function spanBatchTargets(spans: readonly Span[]): {
  attempts: Map<string, { rolloutId: string; attemptId: string }>;
  highestSequenceIds: Map<string, number>;
} {
  const attempts = new Map<string, { rolloutId: string; attemptId: string }>();
  const highestSequenceIds = new Map<string, number>();
  for (const span of spans) {
    attempts.set(attemptKey(span.rollout_id, span.attempt_id), {
      rolloutId: span.rollout_id,
      attemptId: span.attempt_id,
    });
    const highest = highestSequenceIds.get(span.rollout_id);
    if (highest === undefined || span.sequence_id > highest)
      highestSequenceIds.set(span.rollout_id, span.sequence_id);
  }
  return { attempts, highestSequenceIds };
}

/** NotFoundError for the first span target whose rollout or attempt does not exist. */
export function requireSpanTargets(
  attempts: Map<string, { rolloutId: string; attemptId: string }>,
  rolloutExists: (rolloutId: string) => boolean,
  attemptExists: (key: string) => boolean,
): void {
  for (const [key, { rolloutId, attemptId }] of attempts) {
    if (!rolloutExists(rolloutId)) throw new NotFoundError(`rollout ${rolloutId} not found`);
    if (!attemptExists(key))
      throw new NotFoundError(`attempt ${attemptId} not found for rollout ${rolloutId}`);
  }
}

/** The keys of the attempts that stored spans beat for. */
export const beatingAttempts = (stored: readonly Span[]): Set<string> =>
  new Set(stored.map((s) => attemptKey(s.rollout_id, s.attempt_id)));

/** A span arrived for the attempt: its heartbeat time is now, and preparing/unresponsive attempts run again. */
export function attemptHeartbeat(attempt: Attempt, now: number): void {
  attempt.last_heartbeat_time = now;
  if (attempt.status === 'preparing' || attempt.status === 'unresponsive')
    attempt.status = 'running';
}

/**
 * A span arrived for the rollout's latest attempt: a preparing or requeuing rollout starts running; returns
 * whether it changed. Upstream checks ["preparing", "queueing", "requeuing"]; its "queueing" typo means a
 * queuing rollout is left alone, and every Arclight store keeps that behaviour. `isLatestAttempt` is only asked
 * for a rollout in one of those states (a running rollout's spans skip that query).
 */
export function rolloutHeartbeat(rollout: Rollout, isLatestAttempt: () => boolean): boolean {
  if (rollout.status !== 'preparing' && rollout.status !== 'requeuing') return false;
  if (!isLatestAttempt()) return false;
  rollout.status = 'running';
  return true;
}

/** `getManySpanSequenceIds`: how many ids each rollout needs (validated). */
export function sequenceIdRequests(rolloutAttemptIds: Array<[string, string]>): {
  rolloutIds: string[];
  counts: Map<string, number>;
} {
  const rolloutIds = rolloutAttemptIds.map(([rolloutId], i) =>
    p.requireString(`rollout_attempt_ids[${i}][0]`, rolloutId),
  );
  const counts = new Map<string, number>();
  for (const id of rolloutIds) counts.set(id, (counts.get(id) ?? 0) + 1);
  return { rolloutIds, counts };
}

/** Hands out consecutive ids from each rollout's first allocated id, in request order. */
export function assignSequenceIds(
  rolloutIds: readonly string[],
  first: Map<string, number>,
): number[] {
  const next = new Map(first);
  return rolloutIds.map((id) => {
    const value = next.get(id)!;
    next.set(id, value + 1);
    return value;
  });
}

// ------------------------------------------------------------------ reads

/** Rollouts with their latest attempt attached (where they have one). */
export function withLatestAttempt(
  rollouts: readonly Rollout[],
  latest: Map<string, Attempt>,
): Array<Rollout | AttemptedRollout> {
  return rollouts.map((rollout) => {
    const attempt = latest.get(rollout.rollout_id);
    return attempt ? { ...rollout, attempt } : rollout;
  });
}

/** Moves finished rollouts into `finished` and returns the ids still pending (unknown ids are dropped, as upstream). */
export function collectFinished(
  ids: readonly string[],
  rollout: (id: string) => Rollout | undefined,
  finished: Map<string, Rollout>,
): string[] {
  const pending: string[] = [];
  for (const id of ids) {
    const found = rollout(id);
    if (!found) continue;
    if (isFinished(found.status)) finished.set(id, found);
    else pending.push(id);
  }
  return pending;
}

export function paginated<T>(
  items: T[],
  page: Page<unknown>,
  query: PageQuery,
): PaginatedResult<T> {
  return { items, limit: query.limit, offset: query.offset, total: page.total };
}

/** Backends may hand back plain objects; resources always leave a store as class instances. */
export function hydrateResources(update: ResourcesUpdate | undefined): ResourcesUpdate | null {
  if (!update) return null;
  return { ...update, resources: parseNamedResources(update.resources, 'resources') };
}

// ------------------------------------------------------------------ workers and call parameters

/** `updateWorker`'s validated `heartbeat_stats` (undefined: left unchanged). */
export function heartbeatStats(
  params: UpdateWorkerParams,
): Record<string, unknown> | null | undefined {
  return params.heartbeat_stats === undefined
    ? undefined
    : p.optionalRecord('heartbeat_stats', params.heartbeat_stats);
}

/** A worker heartbeat: the time, and the stats when given. */
export function workerHeartbeat(
  worker: Worker,
  stats: Record<string, unknown> | null | undefined,
  now: number,
): Worker {
  worker.last_heartbeat_time = now;
  if (stats !== undefined) worker.heartbeat_stats = stats === null ? null : { ...stats };
  return worker;
}

/** `dequeueManyRollouts`' validated worker id and limit. */
export function dequeueRequest(params: DequeueManyParams): {
  workerId: string | null;
  limit: number;
} {
  const workerId = p.optionalString('worker_id', params.worker_id);
  const limit = params.limit ?? 1;
  if (!Number.isInteger(limit))
    throw p.invalid('limit', `expected an integer, got ${p.describe(limit)}`);
  return { workerId, limit };
}

/** `waitForRollouts`' validated ids (each once, in order) and its deadline (epoch ms; infinite without timeout). */
export function waitRequest(params: WaitForRolloutsParams): {
  ids: string[];
  timeout: number | null;
  deadline: number;
} {
  const ids = p.listOf('rollout_ids', params.rollout_ids) ?? [];
  const timeout = p.optionalNumber('timeout', params.timeout);
  const deadline = timeout == null ? Number.POSITIVE_INFINITY : Date.now() + timeout * 1000;
  return { ids, timeout, deadline };
}

/** The finished rollouts of `ids`, in the order asked. */
export const finishedInOrder = (
  ids: readonly string[],
  finished: Map<string, Rollout>,
): Rollout[] => ids.filter((id) => finished.has(id)).map((id) => finished.get(id)!);

/** Validates a span batch (`addManySpans`). */
export function checkSpans(spans: Span[]): void {
  if (!Array.isArray(spans)) throw p.invalid('spans', 'expected a list');
  for (const [i, span] of spans.entries())
    p.checkSpan(span, spans.length === 1 ? 'span' : `spans[${i}]`);
}

/** Validates `addOtelSpan`'s optional sequence id. */
export function checkSequenceId(sequenceId: number | null | undefined): void {
  if (sequenceId != null && !Number.isInteger(sequenceId)) {
    throw p.invalid('sequence_id', `expected an integer, got ${p.describe(sequenceId)}`);
  }
}
