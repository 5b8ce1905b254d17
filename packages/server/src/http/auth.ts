import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PUBLIC_ROUTE } from './static-site.js';

/** Paths reachable without the token (liveness probes, the Python client's health checks). */
const PUBLIC_PATHS = new Set(['/v1/agl/health']);

const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/** The token a request presents: `Authorization: Bearer <t>` or `x-api-key: <t>`. */
function presentedTokens(request: FastifyRequest): string[] {
  const tokens: string[] = [];
  const authorization = request.headers.authorization;
  if (typeof authorization === 'string') {
    const match = /^Bearer\s+(.+)$/i.exec(authorization.trim());
    if (match) tokens.push(match[1]!.trim());
  }
  const apiKey = request.headers['x-api-key'];
  if (typeof apiKey === 'string') tokens.push(apiKey.trim());
  return tokens;
}

/**
 * Requires the shared secret on every request except `PUBLIC_PATHS` and CORS preflights. Comparison is
 * constant-time over SHA-256 digests, so neither content nor length leaks through timing.
 */
export function installAuth(app: FastifyInstance, token: string): void {
  const expected = digest(token);
  app.addHook('onRequest', async (request, reply) => {
    // The matched route pattern, not the raw URL, decides: no encoding trick reaches another route this way.
    const route = request.routeOptions.url;
    if (route !== undefined && PUBLIC_PATHS.has(route)) return;
    if (
      (request.routeOptions.config as unknown as Record<string, unknown>)?.[PUBLIC_ROUTE] === true
    )
      return;
    if (request.method === 'OPTIONS' && request.headers['access-control-request-method']) return;
    const ok = presentedTokens(request).some((t) => timingSafeEqual(digest(t), expected));
    if (!ok) {
      return reply.code(401).header('www-authenticate', 'Bearer').send({
        detail: 'Missing or invalid token: send Authorization: Bearer <token> or x-api-key',
      });
    }
  });
}
