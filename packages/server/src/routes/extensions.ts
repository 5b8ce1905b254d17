import { ATTEMPT_STATUSES, type Attempt, type ResourcesUpdate, type Worker } from '@arclight/core';
import type { LightningStore, UpdateAttemptParams } from '@arclight/store';
import type { FastifyInstance } from 'fastify';
import { statusOf } from '../http/errors.js';
import { Fields, isJsonObject } from '../http/fields.js';
import { API_AGL, type RouteContext } from './context.js';

/** Arclight's routes beyond Agent Lightning v0.x; upstream's server answers 404 for all of them. */
export const EXTENSIONS_BASE = `${API_AGL}/x-arclight`;

/** What `GET /v1/agl/x-arclight/capabilities` lists; clients use an extension only when it is listed. */
export const EXTENSION_NAMES = ['runner-cycle'] as const;

/**
 * Arclight extensions (clients discover them with `GET /v1/agl/x-arclight/capabilities`):
 *
 * `POST /v1/agl/x-arclight/runner/cycle` — a runner's whole turn between two rollouts in one round trip, as the
 * same store calls a v0.x runner makes one request each, in the same order:
 * 1. `finish` → `updateAttempt(rollout_id, attempt_id, { status, metadata? })` (the previous rollout's outcome);
 *    a store error here is reported in `finish_error` and does not stop the rest, as a runner logs and goes on;
 * 2. `heartbeat_stats` → `updateWorker(worker_id, { heartbeat_stats })`;
 * 3. `dequeue` (default true) → `dequeueRollout({ worker_id })`, and for a dequeued rollout its resources:
 *    `getResourcesById(resources_id)`, or `getLatestResources()` when it has none (a store that applies calls as
 *    they are made reads the latest in the dequeue's commit group, and answers with it when the ids match).
 *
 * Answer: `{ finished, finish_error, worker, rollout, resources }` (each `null` when not asked for or absent).
 */
export function registerExtensionRoutes(app: FastifyInstance, { store }: RouteContext): void {
  app.get(`${EXTENSIONS_BASE}/capabilities`, async () => ({ extensions: EXTENSION_NAMES }));

  app.post(`${EXTENSIONS_BASE}/runner/cycle`, async (request) => {
    const body = Fields.body(request.body);
    const workerId = body.requiredString('worker_id');
    const finish = readFinish(body);
    const heartbeatStats = body.object('heartbeat_stats') ?? undefined;
    const dequeue = readBoolean(body, 'dequeue') ?? true;

    // A store that applies calls as they are made is not awaited between the outcome and the dequeue (one SQLite
    // commit for both); any other store gets each call awaited before the next, as a v0.x runner sends them.
    const together = store.appliesCallsInOrder === true;
    const answer: CycleAnswer = {
      finished: null,
      finish_error: null,
      worker: null,
      rollout: null,
      resources: null,
    };
    let finished: Promise<void> | undefined;
    if (finish) {
      finished = store.updateAttempt(finish.rolloutId, finish.attemptId, finish.changes).then(
        (attempt) => {
          answer.finished = attempt;
        },
        (error: unknown) => {
          answer.finish_error = describeStoreError(error);
        },
      );
      if (!together) await finished;
    }
    if (heartbeatStats) {
      answer.worker = await store.updateWorker(workerId, { heartbeat_stats: heartbeatStats });
    }
    if (dequeue) {
      const dequeued = store.dequeueRollout({ worker_id: workerId });
      // On a store that applies calls as they are made, the latest resources are read right after the dequeue,
      // inside its commit group (SQLite: no read transaction of their own after the commit); they answer for a
      // rollout without resources or pinned to these, else the rollout's own are read by id.
      const latest = together ? store.getLatestResources() : undefined;
      latest?.catch(() => {}); // a failure counts only where the answer uses it
      // `finished` never rejects, so the dequeue is awaited first: its failure always has a handler.
      answer.rollout = await dequeued;
      if (answer.rollout) {
        answer.resources = await resourcesOf(store, answer.rollout.resources_id, latest);
      }
    }
    await finished;
    return answer;
  });
}

interface CycleAnswer {
  finished: Attempt | null;
  finish_error: { status: number; type: string; detail: string } | null;
  worker: Worker | null;
  rollout: Awaited<ReturnType<LightningStore['dequeueRollout']>>;
  resources: ResourcesUpdate | null;
}

interface Finish {
  rolloutId: string;
  attemptId: string;
  changes: UpdateAttemptParams;
}

function readFinish(body: Fields): Finish | null {
  const raw = body.object('finish');
  if (!raw) return null;
  const text = (key: string): string => {
    const value = raw[key];
    if (value === undefined || value === null) return body.fail(`finish.${key}`, 'Field required');
    if (typeof value !== 'string')
      return body.fail(`finish.${key}`, 'Input should be a valid string');
    return value;
  };
  const rolloutId = text('rollout_id');
  const attemptId = text('attempt_id');
  const status = text('status');
  if (!(ATTEMPT_STATUSES as readonly string[]).includes(status)) {
    body.fail(
      'finish.status',
      `Input should be ${ATTEMPT_STATUSES.map((a) => `'${a}'`).join(', ')}`,
    );
  }
  const changes: UpdateAttemptParams = { status: status as UpdateAttemptParams['status'] };
  const metadata = raw.metadata;
  if (metadata !== undefined && metadata !== null) {
    if (!isJsonObject(metadata)) body.fail('finish.metadata', 'Input should be a valid dictionary');
    changes.metadata = metadata;
  }
  return { rolloutId, attemptId, changes };
}

function readBoolean(body: Fields, key: string): boolean | undefined {
  const value = body.raw(key);
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'boolean') return value;
  return body.fail(key, 'Input should be a valid boolean');
}

/** The rollout's resources: by id, or the latest when it has none; `latest`, if given, is the latest already read. */
async function resourcesOf(
  store: LightningStore,
  resourcesId: string | null | undefined,
  latest?: Promise<ResourcesUpdate | null>,
): Promise<ResourcesUpdate | null> {
  if (!resourcesId) return latest ?? store.getLatestResources();
  const known = latest ? await latest.catch(() => null) : null;
  return known?.resources_id === resourcesId ? known : store.getResourcesById(resourcesId);
}

function describeStoreError(error: unknown): { status: number; type: string; detail: string } {
  const status = statusOf(error) ?? 500;
  const type = error instanceof Error ? error.name : typeof error;
  const detail = error instanceof Error ? error.message : String(error);
  return { status, type, detail };
}
