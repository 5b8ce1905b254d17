import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Interop tests start Python (importing agentlightning takes ~15 s) and servers.
    testTimeout: 60_000,
    hookTimeout: 240_000,
  },
});
