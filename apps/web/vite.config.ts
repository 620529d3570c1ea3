import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const API_TARGET = 'http://localhost:3000';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  oxc: { jsx: { runtime: 'automatic' } },
  server: {
    proxy: {
      '/api': { target: API_TARGET, changeOrigin: false },
      '/dev-idp': { target: API_TARGET, changeOrigin: false },
      '/billing': { target: API_TARGET, changeOrigin: false },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The budget that matters is 200 KiB gzipped for the initial load (React DOM alone is ~180 kB raw).
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      onLog(level, log, handler) {
        // Mantine, React Router and TanStack Query mark modules "use client"; a SPA has no use for it.
        if (log.code === 'MODULE_LEVEL_DIRECTIVE') return;
        handler(level, log);
      },
    },
  },
});
