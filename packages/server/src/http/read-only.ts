import type { FastifyInstance } from 'fastify';

/** POST routes that only read (searches, waits) and stay open in read-only mode. */
const READING_POSTS = /\/search$|^\/v1\/agl\/waits\/rollouts$/;

/** In read-only mode, every route that would write answers 405 naming the mode, before touching the store. */
export function installReadOnly(app: FastifyInstance): void {
  app.addHook('preHandler', async (request, reply) => {
    if (request.method === 'GET' || request.method === 'HEAD' || request.method === 'OPTIONS')
      return;
    const route = request.routeOptions.url ?? '';
    if (READING_POSTS.test(route)) return;
    return reply.code(405).send({
      detail: `This store is served read-only (--read-only): ${request.method} ${route} would write`,
    });
  });
}
