import { defineConfig } from 'vitest/config';

export default defineConfig({ test: { name: 'reddit-schemas', include: ['src/**/*.test.ts'] } });
