import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config/config';
import type { Database, Db } from './db/client';
import type { JobQueue } from './jobs/queue';

/** What services and jobs are handed: configuration, the database and the job queue. */
export interface AppContext {
  config: Config;
  database: Database;
  db: Db;
  queue: JobQueue | null;
  log: FastifyBaseLogger;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}
