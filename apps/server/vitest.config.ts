import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'server',
    include: ['src/**/*.test.ts'],
    globalSetup: ['./src/test/global-setup.ts'],
    // Unmocked outbound requests fail the test.
    setupFiles: ['./src/test/no-outbound.setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
