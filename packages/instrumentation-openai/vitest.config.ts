import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The child-process tests load dist/ (as an application would); build it first.
    globalSetup: ['./test/build.global.ts'],
    // Child processes start slowly on a loaded machine; waits are bounded by this, never by sleeps.
    testTimeout: 60_000,
  },
});
