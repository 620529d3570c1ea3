import { openDatabase } from '../db/client';

/** Against PostgreSQL the suites share one database: migrate it once before any file runs. */
export default async function setup() {
  const url = process.env.DATABASE_URL;
  if (!url) return;
  const database = await openDatabase({ url });
  try {
    await database.migrate();
  } finally {
    await database.close();
  }
}
