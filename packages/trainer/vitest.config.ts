import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Client-server cases start runner processes (each imports the packages) and an HTTP store server.
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
