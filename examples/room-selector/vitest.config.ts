import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The demo test runs APO end to end (trainer, runners, fixture LLM, SQLite store, exports).
    testTimeout: 240_000,
    hookTimeout: 240_000,
  },
});
