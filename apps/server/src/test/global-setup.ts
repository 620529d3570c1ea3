import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase } from '../db/client';
import { PGLITE_TEMPLATE_ENV } from './test-app';

/**
 * Against PostgreSQL the suites share one database: migrate it once before any file runs. On PGlite every
 * file gets a database of its own; a new one spends most of a second setting up an empty cluster, so the
 * migrated cluster is made once here and each file starts from a copy of it.
 */
export default async function setup() {
  const url = process.env.DATABASE_URL;
  const database = await openDatabase({ url });
  try {
    await database.migrate();
    if (url) return;
    const dir = mkdtempSync(path.join(tmpdir(), 'threadreach-pglite-'));
    const file = path.join(dir, 'migrated.tar');
    const dump = await database.pglite!.dumpDataDir('none');
    writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
    process.env[PGLITE_TEMPLATE_ENV] = file;
    return () => rmSync(dir, { recursive: true, force: true });
  } finally {
    await database.close();
  }
}
