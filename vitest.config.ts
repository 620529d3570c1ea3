import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      'packages/contract',
      'packages/reddit-schemas',
      'packages/reddit-sim',
      'apps/server',
      'apps/web',
    ],
  },
});
