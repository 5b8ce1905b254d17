import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The tests spawn the built CLI (dist/bin.js); build it first.
    globalSetup: ['./test/build.global.ts'],
    // Every test spawns node processes; on a loaded 2-core machine their startup alone can exceed vitest's 5 s.
    testTimeout: 60_000,
  },
});
