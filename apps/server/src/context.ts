import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { createAiService, type AiService } from './ai/ai.service';
import { createLazySubredditDirectory } from './ai/reddit-directory.adapter';
import { systemClock, type Clock } from './clock';
import type { Config } from './config/config';
import type { Database, Db } from './db/client';
import { searchRedditClient } from './features/credentials';
import { insertSystemLogs } from './features/system-logs';
import { loggerOptions } from './http/logger';
import type { RedditEndpoints } from './integrations/reddit';
import { startQueue, type JobQueue, type QueueStarter } from './jobs/queue';
import { bufferedStdout } from './logging/buffered-stdout';
import { SystemLogSink, type SystemLogSinkOptions } from './logging/system-log-sink';
import { SecretBox } from './security/secrets';
import { APP_VERSION } from './version';

/** Where and how the server reaches Reddit. */
export interface RedditRuntime {
  /** null when no Reddit is configured or started (some tests). */
  endpoints: RedditEndpoints | null;
  appId: string;
  version: string;
}

/** What services and jobs are handed: configuration, the database, the job queue, secrets and Reddit. */
export interface AppContext {
  config: Config;
  database: Database;
  db: Db;
  /** null when this process runs no job queue (JOBS_ENABLED=false, most tests). */
  queue: JobQueue | null;
  /** The one logger: the HTTP server writes its request lines through it too. */
  log: FastifyBaseLogger;
  /** Encrypts and decrypts secrets at rest. */
  secrets: SecretBox;
  reddit: RedditRuntime;
  /** The only source of time for services and jobs. */
  clock: Clock;
  /** The AI engine (offline, or the configured LLM): one per process. */
  ai: AiService;
  /** Copies every log line into system_logs; null when the log is off. Close it before the database. */
  systemLogs: SystemLogSink | null;
}

export interface AppContextOptions {
  config: Config;
  database: Database;
  /** Starts the job queue, or null for none; by default pg-boss on the database when JOBS_ENABLED. */
  queue?: QueueStarter | null;
  /**
   * false silences the log; a stream receives the same structured lines stdout would. Unless `systemLogs`
   * is false, every line is copied into system_logs as well.
   */
  logger?: false | { stream: pino.DestinationStream; level?: string };
  /**
   * false keeps lines out of system_logs; `store` replaces the statement that stores a batch (the log
   * benchmark parts the server's own cost from the database's this way).
   */
  systemLogs?: boolean | { store: SystemLogSinkOptions['insert'] };
  /** Reddit's hosts when the configuration does not name them (the in-process simulator). */
  reddit?: RedditEndpoints | null;
  /** Tests share a fixed or virtual clock with the simulator; the system clock otherwise. */
  clock?: Clock;
}

/** Builds the whole context, the job queue included, before any route or worker is attached. */
export async function createAppContext(options: AppContextOptions): Promise<AppContext> {
  const { config, database } = options;
  const systemLogs =
    options.logger === false || options.systemLogs === false
      ? null
      : new SystemLogSink({
          insert:
            typeof options.systemLogs === 'object'
              ? options.systemLogs.store
              : (rows) => insertSystemLogs(database.db, rows),
        });
  const log = createLogger(config, options.logger, systemLogs);
  const starter = options.queue === undefined ? (config.jobsEnabled ? startQueue : null) : options.queue;
  const queue = starter ? await starter(database, (err) => log.error({ err }, 'job queue error')) : null;
  // Subreddit suggestions run only in the generate-subreddits job, so their Reddit calls never wait:
  // a spent budget throws with `retryAtMs` and the job is rescheduled.
  const subreddits = createLazySubredditDirectory(async () =>
    (await searchRedditClient(ctx)).app.withoutWaiting(),
  );
  const ctx: AppContext = {
    config,
    database,
    db: database.db,
    queue,
    log,
    secrets: new SecretBox(config.secretKeys),
    reddit: {
      endpoints:
        config.reddit.kind === 'live'
          ? { apiUrl: config.reddit.apiUrl, authUrl: config.reddit.authUrl }
          : (options.reddit ?? null),
      appId: config.reddit.appId,
      version: APP_VERSION,
    },
    clock: options.clock ?? systemClock,
    ai: createAiService({ config, log, subreddits }),
    systemLogs,
  };
  return ctx;
}

function createLogger(
  config: Config,
  logger: AppContextOptions['logger'],
  systemLogs: SystemLogSink | null,
): pino.Logger {
  if (logger === false) return pino({ level: 'silent' });
  const level = logger?.level ?? config.logLevel;
  const options = loggerOptions(level);
  const out = logger ? logger.stream : bufferedStdout();
  if (!systemLogs || level === 'silent') return pino(options, out);
  const streamLevel = level as pino.Level;
  return pino(
    options,
    pino.multistream([
      { level: streamLevel, stream: out },
      { level: streamLevel, stream: systemLogs },
    ]),
  );
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}
