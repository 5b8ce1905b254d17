import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The Agents SDK disables tracing when NODE_ENV=test (vitest sets it): the setup re-enables it.
    setupFiles: ['./test/setup.ts'],
  },
});
