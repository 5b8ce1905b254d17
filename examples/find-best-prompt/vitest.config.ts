import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The example runs a trainer with runners against the fixture LLM.
    testTimeout: 240_000,
    hookTimeout: 240_000,
  },
});
