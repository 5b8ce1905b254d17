import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// The dashboard is a static single-page app: built into dist/app and served by `arclight store` at `/`.
export default defineConfig({
  root: here('./app'),
  // Relative asset URLs: the page works wherever it is served from.
  base: './',
  resolve: { alias: { 'node:crypto': here('./app/shims/node-crypto.ts') } },
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: here('./dist/app'),
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 400,
    rolldownOptions: {
      treeshake: {
        // The @arclight packages are written for Node too; only what the dashboard imports is bundled (their
        // module-level Node-only setup, like core's id pool, must not run in the browser).
        moduleSideEffects: (id: string) =>
          !/[\\/]packages[\\/](core|adapter)[\\/]dist[\\/]/.test(id),
      },
    },
  },
});
