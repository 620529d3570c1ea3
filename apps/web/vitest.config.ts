import { defineConfig, mergeConfig } from 'vitest/config';
import { maxWorkers } from '../../vitest.workers';
import viteConfig from './vite.config.ts';

export default mergeConfig(
  viteConfig,
  defineConfig({
    test: {
      name: 'web',
      environment: 'jsdom',
      include: ['src/**/*.test.{ts,tsx}'],
      setupFiles: ['./src/test/setup.ts'],
      restoreMocks: true,
      maxWorkers,
      // Fake clocks leave setImmediate alone: the mocked network reads request bodies with it.
      fakeTimers: { toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] },
    },
  }),
);
