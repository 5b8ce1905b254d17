import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // APO and Baseline runs go through a Trainer, runners and a fixture LLM server; the Python interop test
    // starts upstream's store and a Python algorithm.
    testTimeout: 180_000,
    hookTimeout: 120_000,
  },
});
