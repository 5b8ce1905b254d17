import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Some cases start runner processes and an HTTP store server.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
