import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Each file installs a fresh app with npm (from npm's cache) and runs it: minutes, not seconds. The files
    // mostly wait on npm and child processes, so they run side by side even on two cores.
    maxWorkers: 3,
    // `npm run test:unit` excludes test/interop/, i.e. every file here.
    passWithNoTests: true,
    testTimeout: 300_000,
    // Room for createScratchApp's retries when the registry refuses tarballs for a while.
    hookTimeout: 900_000,
  },
});
