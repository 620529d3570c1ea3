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
      // A fresh jsdom and setup per file took about a third of the suite; setup.ts resets what tests leave.
      isolate: false,
      maxWorkers,
      // A screen test renders, types and waits for answers: on two busy cores that can pass 5 s.
      testTimeout: 15_000,
      // Fake clocks leave setImmediate alone: the mocked network reads request bodies with it.
      fakeTimers: { toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] },
    },
  }),
);
