import { defineConfig } from 'vitest/config';
export default defineConfig({ test: { name: 'reddit-sim', include: ['src/**/*.test.ts'] } });
