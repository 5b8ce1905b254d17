import type { PaginatedResult } from '@arclight/core';
import { type LightningStore, SPAN_FILTER_FIELDS, type SpanTextSource } from '@arclight/store';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { Fields } from '../http/fields.js';
import { readSpan } from '../http/models.js';
import { boundedPage, readFilterLogic, readPage } from '../http/pagination.js';
import { API_AGL, type RouteContext } from './context.js';

/** `POST /spans`, `GET /spans`, `POST /spans/search`, `POST /spans/next`. */
export function registerSpanRoutes(app: FastifyInstance, { store, limits }: RouteContext): void {
  app.post(`${API_AGL}/spans`, async (request, reply) => {
    const stored = await store.addSpan(readSpan(request.body));
    return reply.code(201).send(stored);
  });

  const texts = hasSpanTexts(store) ? store : undefined;
  const querySpans = async (fields: Fields, reply: FastifyReply) => {
    const rolloutId = fields.requiredString('rollout_id');
    const attemptId = fields.string('attempt_id') ?? null;
    const filters: Record<string, string | null> = {};
    for (const key of SPAN_FILTER_FIELDS) filters[key] = fields.string(key) ?? null;
    const params = { ...filters, attempt_id: attemptId, filter_logic: readFilterLogic(fields) };
    const page = readPage(fields, 'Span', 'sequence_id');
    // A store that keeps each span as JSON text (SQLite) hands it over as it is: no parse and re-serialisation.
    if (texts) {
      const textPage = await boundedPage(page, limits, 'spans', (bounded) =>
        texts.querySpanTexts(rolloutId, { ...params, ...bounded }),
      );
      if (textPage) return reply.type(JSON_TYPE).send(pageJson(textPage));
    }
    return boundedPage(page, limits, 'spans', (bounded) =>
      store.querySpans(rolloutId, { ...params, ...bounded }),
    );
  };
  app.get(`${API_AGL}/spans`, async (request, reply) =>
    querySpans(Fields.query(request.query), reply),
  );
  app.post(`${API_AGL}/spans/search`, async (request, reply) =>
    querySpans(Fields.body(request.body), reply),
  );

  app.post(`${API_AGL}/spans/next`, async (request) => {
    const body = Fields.body(request.body);
    const rolloutId = body.requiredString('rollout_id');
    const attemptId = body.requiredString('attempt_id');
    return { sequence_id: await store.getNextSpanSequenceId(rolloutId, attemptId) };
  });
}

const JSON_TYPE = 'application/json; charset=utf-8';

function hasSpanTexts(store: LightningStore): store is LightningStore & SpanTextSource {
  return typeof (store as Partial<SpanTextSource>).querySpanTexts === 'function';
}

/** The page as `JSON.stringify` of the parsed spans would write it, with each span's stored text spliced in. */
function pageJson({ items, limit, offset, total }: PaginatedResult<string>): string {
  return `{"items":[${items.join(',')}],"limit":${limit},"offset":${offset},"total":${total}}`;
}
