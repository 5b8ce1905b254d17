import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The browser test builds what it spawns (the CLI, the room-selector example) first.
    globalSetup: ['./test/build.global.ts'],
    // The browser test runs the room-selector example, a store server and Chromium.
    testTimeout: 120_000,
    hookTimeout: 240_000,
  },
});
