import type { FastifyInstance } from 'fastify';
import { Fields } from '../http/fields.js';
import { readNamedResources } from '../http/models.js';
import { boundedPage, readPage } from '../http/pagination.js';
import { API_AGL, type IdParams, type RouteContext } from './context.js';

type ResourcesParams = { Params: Pick<IdParams, 'resources_id'> };

/** `GET|POST /resources`, `GET /resources/latest`, `GET|POST /resources/{resources_id}`. */
export function registerResourceRoutes(
  app: FastifyInstance,
  { store, limits }: RouteContext,
): void {
  app.get(`${API_AGL}/resources`, async (request) => {
    const fields = Fields.query(request.query);
    const filters = {
      resources_id: fields.string('resources_id') ?? null,
      resources_id_contains: fields.string('resources_id_contains') ?? null,
    };
    const page = readPage(fields, 'ResourcesUpdate', null);
    return boundedPage(page, limits, 'resources', (bounded) =>
      store.queryResources({ ...filters, ...bounded }),
    );
  });

  app.post(`${API_AGL}/resources`, async (request, reply) => {
    const update = await store.addResources(readNamedResources(request.body));
    return reply.code(201).send(update);
  });

  app.get(`${API_AGL}/resources/latest`, async () => store.getLatestResources());

  app.get<ResourcesParams>(`${API_AGL}/resources/:resources_id`, async (request) =>
    store.getResourcesById(request.params.resources_id),
  );

  app.post<ResourcesParams>(`${API_AGL}/resources/:resources_id`, async (request) =>
    store.updateResources(request.params.resources_id, readNamedResources(request.body)),
  );
}
