import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';

/**
 * One query-builder type for both drivers: PGlite and node-postgres expose the same Drizzle API. Queries name
 * their tables, which live beside their features, so the database layer knows none of them.
 */
export type Db = NodePgDatabase;
export type DbDriver = 'pglite' | 'postgres';
/** A transaction handle; repositories accept either. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

export interface Database {
  db: Db;
  driver: DbDriver;
  /** The embedded engine, when the driver is PGlite (the job queue shares it). */
  pglite: PGlite | null;
  /** The connection string, when the driver is PostgreSQL (the job queue opens its own pool). */
  url: string | null;
  migrate(): Promise<void>;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

const MIGRATIONS_DIR = path.resolve(import.meta.dirname, '../../drizzle');

export interface DatabaseOptions {
  /** PostgreSQL connection string; without it PGlite is used. */
  url?: string | undefined;
  /** Directory for PGlite's files; without it PGlite lives in memory. */
  dataDir?: string | undefined;
  /** In memory: a PGlite data directory (`dumpDataDir`) to start from, skipping the empty cluster's setup. */
  pgliteTemplate?: Blob | undefined;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.url) {
    const pool = new pg.Pool({ connectionString: options.url, max: 10 });
    const db = drizzlePg(pool);
    return {
      db,
      driver: 'postgres',
      pglite: null,
      url: options.url,
      migrate: () => migratePg(db, { migrationsFolder: MIGRATIONS_DIR }),
      ping: () => ping(() => pool.query('select 1')),
      close: () => pool.end(),
    };
  }
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  // pg_trgm indexes the system log's free-text search, as on PostgreSQL.
  const extensions = { pg_trgm };
  const client = options.dataDir
    ? new PGlite(options.dataDir, { extensions })
    : new PGlite({ extensions, loadDataDir: options.pgliteTemplate });
  await client.waitReady;
  const db = drizzlePglite(client);
  return {
    db: db as unknown as Db,
    driver: 'pglite',
    pglite: client,
    url: null,
    migrate: () => migratePglite(db, { migrationsFolder: MIGRATIONS_DIR }),
    ping: () => ping(() => client.query('select 1')),
    close: () => client.close(),
  };
}

async function ping(query: () => Promise<unknown>): Promise<boolean> {
  try {
    await query();
    return true;
  } catch {
    return false;
  }
}
