import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The test runs APO end to end (trainer, gateway, runners, fixture LLM).
    testTimeout: 240_000,
    hookTimeout: 240_000,
  },
});
