import '@arclight/core/supported-node'; // first: a clear error on Node.js < 22.13

import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Largest gzipped size of the dashboard's JavaScript + CSS (checked when it is built; see the README). */
export const DASHBOARD_BUNDLE_BUDGET_BYTES = 100 * 1024;

/**
 * The folder holding the built dashboard (`index.html` and `assets/`), shipped inside this package. Serve it as
 * static files at the root of a LightningStore server (`arclight store` does); the page then talks to that
 * server's `/v1/agl/*` GET routes.
 */
export function dashboardAssetsDir(): string {
  const dir = fileURLToPath(new URL('./app/', import.meta.url));
  if (!existsSync(`${dir}index.html`)) {
    throw new Error(
      `@arclight/dashboard: the built dashboard is missing (${dir}index.html); ` +
        'build it with `npm run build -w packages/dashboard`',
    );
  }
  return dir;
}
