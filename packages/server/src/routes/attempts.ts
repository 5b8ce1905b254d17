import { ATTEMPT_STATUSES } from '@arclight/core';
import type { UpdateAttemptParams } from '@arclight/store';
import type { FastifyInstance } from 'fastify';
import { Fields } from '../http/fields.js';
import { boundedPage, readPage } from '../http/pagination.js';
import { API_AGL, type IdParams, type RouteContext } from './context.js';
import { nullNotAllowed } from './rollouts.js';

type RolloutParams = { Params: Pick<IdParams, 'rollout_id'> };
type AttemptParams = { Params: Pick<IdParams, 'rollout_id' | 'attempt_id'> };

/** Attempts of a rollout: start, query, search, latest, update. */
export function registerAttemptRoutes(app: FastifyInstance, { store, limits }: RouteContext): void {
  const base = `${API_AGL}/rollouts/:rollout_id/attempts`;

  app.post<RolloutParams>(base, async (request, reply) => {
    const body = Fields.body(request.body, true);
    const workerId = body.string('worker_id') ?? null;
    const rollout = await store.startAttempt(request.params.rollout_id, { worker_id: workerId });
    return reply.code(201).send(rollout);
  });

  const queryAttempts = (rolloutId: string, fields: Fields) =>
    boundedPage(readPage(fields, 'Attempt', 'sequence_id'), limits, 'attempts', (page) =>
      store.queryAttempts(rolloutId, page),
    );
  app.get<RolloutParams>(base, async (request) =>
    queryAttempts(request.params.rollout_id, Fields.query(request.query)),
  );
  app.post<RolloutParams>(`${base}/search`, async (request) =>
    queryAttempts(request.params.rollout_id, Fields.body(request.body)),
  );

  app.get<RolloutParams>(`${base}/latest`, async (request) =>
    store.getLatestAttempt(request.params.rollout_id),
  );

  app.post<AttemptParams>(`${base}/:attempt_id`, async (request) => {
    const body = Fields.body(request.body);
    const changes: UpdateAttemptParams = {};
    if (body.has('status')) {
      changes.status = body.enumValue('status', ATTEMPT_STATUSES) ?? nullNotAllowed('status');
    }
    if (body.has('worker_id')) {
      changes.worker_id = body.string('worker_id') ?? nullNotAllowed('worker_id');
    }
    if (body.has('last_heartbeat_time')) {
      changes.last_heartbeat_time =
        body.number('last_heartbeat_time') ?? nullNotAllowed('last_heartbeat_time');
    }
    if (body.has('metadata')) {
      changes.metadata = body.object('metadata') ?? nullNotAllowed('metadata');
    }
    const { rollout_id, attempt_id } = request.params;
    return store.updateAttempt(rollout_id, attempt_id, changes);
  });
}
