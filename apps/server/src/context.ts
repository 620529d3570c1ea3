import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config/config';
import type { Database, Db } from './db/client';
import type { Clock, RedditEndpoints } from './integrations/reddit';
import type { JobQueue } from './jobs/queue';
import type { SecretBox } from './security/secrets';

/** Where and how the server reaches Reddit. */
export interface RedditRuntime {
  /** null when no Reddit is configured or started (some tests). */
  endpoints: RedditEndpoints | null;
  appId: string;
  version: string;
  clock: Clock;
}

/** What services and jobs are handed: configuration, the database, the job queue, secrets and Reddit. */
export interface AppContext {
  config: Config;
  database: Database;
  db: Db;
  queue: JobQueue | null;
  log: FastifyBaseLogger;
  /** Encrypts and decrypts secrets at rest. */
  secrets: SecretBox;
  reddit: RedditRuntime;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}
