import { SPAN_FILTER_FIELDS } from '@arclight/store';
import type { FastifyInstance } from 'fastify';
import { Fields } from '../http/fields.js';
import { readSpan } from '../http/models.js';
import { readFilterLogic, readPage } from '../http/pagination.js';
import { API_AGL, type RouteContext } from './context.js';

/** `POST /spans`, `GET /spans`, `POST /spans/search`, `POST /spans/next`. */
export function registerSpanRoutes(app: FastifyInstance, { store }: RouteContext): void {
  app.post(`${API_AGL}/spans`, async (request, reply) => {
    const stored = await store.addSpan(readSpan(request.body));
    return reply.code(201).send(stored);
  });

  const querySpans = async (fields: Fields) => {
    const rolloutId = fields.requiredString('rollout_id');
    const attemptId = fields.string('attempt_id') ?? null;
    const filters: Record<string, string | null> = {};
    for (const key of SPAN_FILTER_FIELDS) filters[key] = fields.string(key) ?? null;
    const page = readPage(fields, 'Span', 'sequence_id');
    return store.querySpans(rolloutId, {
      ...filters,
      attempt_id: attemptId,
      ...page,
      filter_logic: readFilterLogic(fields),
    });
  };
  app.get(`${API_AGL}/spans`, async (request) => querySpans(Fields.query(request.query)));
  app.post(`${API_AGL}/spans/search`, async (request) => querySpans(Fields.body(request.body)));

  app.post(`${API_AGL}/spans/next`, async (request) => {
    const body = Fields.body(request.body);
    const rolloutId = body.requiredString('rollout_id');
    const attemptId = body.requiredString('attempt_id');
    return { sequence_id: await store.getNextSpanSequenceId(rolloutId, attemptId) };
  });
}
