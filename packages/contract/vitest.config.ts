import { defineConfig } from 'vitest/config';
import { maxWorkers } from '../../vitest.workers';

export default defineConfig({ test: { name: 'contract', include: ['src/**/*.test.ts'], maxWorkers } });
