import { WORKER_STATUSES } from '@arclight/core';
import type { UpdateWorkerParams } from '@arclight/store';
import type { FastifyInstance } from 'fastify';
import { Fields } from '../http/fields.js';
import { boundedPage, readFilterLogic, readPage } from '../http/pagination.js';
import { API_AGL, type IdParams, type RouteContext } from './context.js';
import { nullNotAllowed } from './rollouts.js';

type WorkerParams = { Params: Pick<IdParams, 'worker_id'> };

/** `GET /workers`, `POST /workers/search`, `GET|POST /workers/{worker_id}`. */
export function registerWorkerRoutes(app: FastifyInstance, { store, limits }: RouteContext): void {
  const queryWorkers = async (fields: Fields) => {
    const filters = {
      status_in: fields.enumList('status_in', WORKER_STATUSES) ?? null,
      worker_id_contains: fields.string('worker_id_contains') ?? null,
    };
    const page = readPage(fields, 'Worker', null);
    const filterLogic = readFilterLogic(fields);
    return boundedPage(page, limits, 'workers', (bounded) =>
      store.queryWorkers({ ...filters, ...bounded, filter_logic: filterLogic }),
    );
  };
  app.get(`${API_AGL}/workers`, async (request) => queryWorkers(Fields.query(request.query)));
  app.post(`${API_AGL}/workers/search`, async (request) => queryWorkers(Fields.body(request.body)));

  app.get<WorkerParams>(`${API_AGL}/workers/:worker_id`, async (request) =>
    store.getWorkerById(request.params.worker_id),
  );

  app.post<WorkerParams>(`${API_AGL}/workers/:worker_id`, async (request) => {
    const body = Fields.body(request.body, true);
    const params: UpdateWorkerParams = {};
    if (body.has('heartbeat_stats')) {
      params.heartbeat_stats = body.object('heartbeat_stats') ?? nullNotAllowed('heartbeat_stats');
    }
    return store.updateWorker(request.params.worker_id, params);
  });
}
