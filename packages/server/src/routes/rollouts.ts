import { ROLLOUT_MODES, ROLLOUT_STATUSES } from '@arclight/core';
import type { UpdateRolloutParams } from '@arclight/store';
import type { FastifyInstance } from 'fastify';
import { badRequest } from '../http/errors.js';
import { Fields } from '../http/fields.js';
import { readRolloutConfig } from '../http/models.js';
import { boundedPage, readFilterLogic, readPage } from '../http/pagination.js';
import { API_AGL, type IdParams, type RouteContext } from './context.js';

type RolloutParams = { Params: Pick<IdParams, 'rollout_id'> };

/** `POST /rollouts`, `GET /rollouts`, `POST /rollouts/search`, `GET|POST /rollouts/{rollout_id}`. */
export function registerRolloutRoutes(app: FastifyInstance, { store, limits }: RouteContext): void {
  app.post(`${API_AGL}/rollouts`, async (request, reply) => {
    const body = Fields.body(request.body);
    const rollout = await store.startRollout({
      input: body.required('input'),
      mode: body.enumValue('mode', ROLLOUT_MODES) ?? null,
      resources_id: body.string('resources_id') ?? null,
      config: readRolloutConfig(body, 'config') ?? null,
      metadata: body.object('metadata') ?? null,
      worker_id: body.string('worker_id') ?? null,
    });
    return reply.code(201).send(rollout);
  });

  const queryRollouts = async (fields: Fields) => {
    const filters = {
      status_in: fields.enumList('status_in', ROLLOUT_STATUSES) ?? null,
      rollout_id_in: fields.stringList('rollout_id_in') ?? null,
      rollout_id_contains: fields.string('rollout_id_contains') ?? null,
    };
    const page = readPage(fields, 'Rollout', null);
    const filterLogic = readFilterLogic(fields);
    return boundedPage(page, limits, 'rollouts', (bounded) =>
      store.queryRollouts({ ...filters, ...bounded, filter_logic: filterLogic }),
    );
  };
  app.get(`${API_AGL}/rollouts`, async (request) => queryRollouts(Fields.query(request.query)));
  app.post(`${API_AGL}/rollouts/search`, async (request) =>
    queryRollouts(Fields.body(request.body)),
  );

  app.get<RolloutParams>(`${API_AGL}/rollouts/:rollout_id`, async (request) =>
    store.getRolloutById(request.params.rollout_id),
  );

  app.post<RolloutParams>(`${API_AGL}/rollouts/:rollout_id`, async (request) => {
    const body = Fields.body(request.body);
    const changes: UpdateRolloutParams = {};
    if (body.has('input')) changes.input = body.raw('input');
    if (body.has('mode')) changes.mode = body.enumValue('mode', ROLLOUT_MODES) ?? null;
    if (body.has('resources_id')) changes.resources_id = body.string('resources_id') ?? null;
    if (body.has('status')) {
      changes.status = body.enumValue('status', ROLLOUT_STATUSES) ?? nullNotAllowed('status');
    }
    if (body.has('config')) {
      changes.config = readRolloutConfig(body, 'config') ?? nullNotAllowed('config');
    }
    if (body.has('metadata')) changes.metadata = body.object('metadata') ?? null;
    return store.updateRollout(request.params.rollout_id, changes);
  });
}

/** Upstream's `_get_mandatory_field_or_unset`: an explicit `null` for a mandatory store field is a 400. */
export function nullNotAllowed(field: string): never {
  throw badRequest(`${field} is invalid; it cannot be a null value.`);
}
