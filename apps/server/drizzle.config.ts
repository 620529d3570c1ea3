import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: ['./src/features/*/*.table.ts', './src/integrations/*/*.table.ts'],
  out: './drizzle',
});
