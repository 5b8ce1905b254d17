import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The tests spawn the built CLI (dist/bin.js); build it first.
    globalSetup: ['./test/build.global.ts'],
  },
});
