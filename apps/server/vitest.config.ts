import { defineConfig } from 'vitest/config';
import { maxWorkers } from '../../vitest.workers';

export default defineConfig({
  test: {
    name: 'server',
    include: ['src/**/*.test.ts'],
    globalSetup: ['./src/test/global-setup.ts'],
    // Unmocked outbound requests fail the test.
    setupFiles: ['./src/test/no-outbound.setup.ts'],
    // On PostgreSQL every file shares one database (global-setup.ts), so files run one at a time; on
    // PGlite each has its own and they run side by side.
    fileParallelism: !process.env.DATABASE_URL,
    // A worker keeps its loaded modules from file to file: each file builds its own app and database, and
    // loading the app's modules afresh for every file was a quarter of the suite's time.
    isolate: false,
    maxWorkers,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
