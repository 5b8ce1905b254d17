import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The interop tests start upstream's Python `agl store` (importing agentlightning takes ~15 s).
    testTimeout: 60_000,
    hookTimeout: 240_000,
  },
});
