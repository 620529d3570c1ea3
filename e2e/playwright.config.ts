import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';

const PORT = Number(process.env.E2E_PORT ?? 3100);
const BASE_URL = `http://localhost:${PORT}`;
// Set once in the runner; workers inherit it, so tests can issue v3 links with the server's own secret.
process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), 'threadreach-e2e-'));
process.env.E2E_BASE_URL = BASE_URL;
// The server's built-in Reddit simulator, on a known port so tests can read what it received.
const SIM_PORT = Number(process.env.E2E_SIM_PORT ?? PORT + 1);
process.env.E2E_SIM_URL = `http://127.0.0.1:${SIM_PORT}`;

/** Browser tests in Debian's Chromium against the real server on its embedded defaults, fresh data each run. */
export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  timeout: 60_000,
  expect: { timeout: 15_000 },
  retries: 0,
  workers: 1,
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL: BASE_URL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: {
    command: 'npm run start -w @threadreach/server',
    cwd: path.resolve(import.meta.dirname, '..'),
    url: `${BASE_URL}/api/v1/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(PORT),
      PUBLIC_URL: BASE_URL,
      DATA_DIR: process.env.E2E_DATA_DIR,
      REDDIT_SIM_PORT: String(SIM_PORT),
      // Info lines (one access line per request) are what /logs is tested with; stdout is ignored.
      LOG_LEVEL: 'info',
    },
  },
});
