import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/** Route config flag that lets a route through the token check (the page itself holds no store data). */
export const PUBLIC_ROUTE = 'arclightPublic';

export interface StaticSiteOptions {
  /** Folder with `index.html` and its assets (e.g. `dashboardAssetsDir()` of `@arclight/dashboard`). */
  root: string;
}

/**
 * Serves a built single-page app (the dashboard) at `/`: `index.html` and each file under `root` get a GET
 * route of their own (no wildcard, so unknown paths keep the API's 404). The pages are public; the data they
 * load from `/v1/agl/*` still needs the token.
 */
export async function serveStaticSite(
  app: FastifyInstance,
  options: StaticSiteOptions,
): Promise<void> {
  if (!existsSync(join(options.root, 'index.html'))) {
    throw new Error(`static site: ${join(options.root, 'index.html')} does not exist`);
  }
  await app.register(async (scope) => {
    scope.addHook('onRoute', (route) => {
      route.config = { ...(route.config as object), [PUBLIC_ROUTE]: true };
    });
    await scope.register(fastifyStatic, {
      root: options.root,
      prefix: '/',
      wildcard: false,
      index: ['index.html'],
      // Hashed asset names never change content; index.html must be revalidated to pick up a new build.
      setHeaders(reply, path) {
        reply.header(
          'cache-control',
          path.endsWith('index.html') ? 'no-cache' : 'public, max-age=31536000, immutable',
        );
      },
    });
  });
}
