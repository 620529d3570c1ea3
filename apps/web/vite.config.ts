import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';

const API_TARGET = 'http://localhost:3000';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** Text files smaller than this gain too little from compression to be worth a request's decoding. */
const COMPRESS_MIN_BYTES = 1024;

/**
 * Brotli and gzip copies beside every built script, style sheet and SVG: the server sends the one the browser
 * takes (@fastify/static `preCompressed`), compressed once here at their best levels instead of on each
 * request.
 */
function precompress(): Plugin {
  return {
    name: 'threadreach:precompress',
    apply: 'build',
    async writeBundle(options, bundle) {
      const dir = options.dir ?? 'dist';
      const files = Object.keys(bundle).filter((file) => /\.(js|css|svg)$/.test(file));
      await Promise.all(
        files.map(async (file) => {
          const body = await readFile(path.join(dir, file));
          if (body.length < COMPRESS_MIN_BYTES) return;
          const [br, gz] = await Promise.all([
            brotli(body, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
                [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
              },
            }),
            gzipped(body, { level: constants.Z_BEST_COMPRESSION }),
          ]);
          await Promise.all([
            writeFile(path.join(dir, `${file}.br`), br),
            writeFile(path.join(dir, `${file}.gz`), gz),
          ]);
        }),
      );
    },
  };
}

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  oxc: { jsx: { runtime: 'automatic' } },
  plugins: [precompress()],
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
