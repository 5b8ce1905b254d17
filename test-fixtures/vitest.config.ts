import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The bin test spawns dist/bin.js; build it first.
    globalSetup: ['./test/build.global.ts'],
  },
});
