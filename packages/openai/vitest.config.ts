import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The child-process tests load dist/ (as an application would); build it first.
    globalSetup: ['./test/build.global.ts'],
  },
});
