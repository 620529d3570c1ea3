import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startRedditSim, type MessageStyle, type RedditSim } from '@threadreach/reddit-sim';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app';
import type { Clock } from '../clock';
import { loadConfig, type Config } from '../config/config';
import { createAppContext, type AppContext, type AppContextOptions } from '../context';
import { openDatabase, type Database } from '../db/client';
import type { QueueStarter } from '../jobs/queue';

export const TEST_JWT_SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';

export interface TestApp {
  app: FastifyInstance;
  ctx: AppContext;
  config: Config;
  database: Database;
  /** Base URL when the app listens on a real port. */
  url: string;
  /** The Reddit simulator, when asked for. */
  sim: RedditSim | null;
  close(): Promise<void>;
}

/** Where the test run's global setup left a migrated PGlite cluster (a `dumpDataDir` file), if it did. */
export const PGLITE_TEMPLATE_ENV = 'THREADREACH_TEST_PGLITE_TEMPLATE';

/** The database of a test file: PostgreSQL when DATABASE_URL is set, otherwise a fresh in-memory PGlite. */
export async function openTestDatabase(): Promise<Database> {
  const url = process.env.DATABASE_URL;
  const templateFile = url ? undefined : process.env[PGLITE_TEMPLATE_ENV];
  const pgliteTemplate = templateFile ? new Blob([readFileSync(templateFile)]) : undefined;
  const database = await openDatabase({ url, pgliteTemplate });
  if (!url) await database.migrate();
  return database;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export interface TestAppOptions {
  /** Listen on a real port (needed when the server must call itself, as SSO does). */
  listen?: boolean;
  env?: Record<string, string>;
  logger?: AppContextOptions['logger'];
  /** With a logger: false keeps its lines out of system_logs; `store` replaces storing a batch. */
  systemLogs?: AppContextOptions['systemLogs'];
  /** Starts a job queue (`startQueue`); none by default. */
  queue?: QueueStarter;
  /**
   * Start a Reddit simulator for the app (with a clock shared by both when given, and classic or
   * chat-era messages).
   */
  reddit?: boolean | { clock: Clock; messageStyle?: MessageStyle };
  /** The context's clock when no Reddit clock is given; the system clock by default. */
  clock?: Clock;
}

export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const port = options.listen ? await freePort() : 3999;
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    JWT_SECRET: TEST_JWT_SECRET,
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'threadreach-test-')),
    WEB_DIST_DIR: path.join(tmpdir(), 'threadreach-no-web'),
    LOG_LEVEL: 'silent',
    ...options.env,
  });
  const database = await openTestDatabase();
  const clock = typeof options.reddit === 'object' ? options.reddit.clock : options.clock;
  const sim = options.reddit
    ? await startRedditSim({
        port: 0,
        seed: 42,
        ...(clock ? { now: clock.now } : {}),
        ...(typeof options.reddit === 'object' && options.reddit.messageStyle
          ? { messageStyle: options.reddit.messageStyle }
          : {}),
      })
    : null;
  const ctx = await createAppContext({
    config,
    database,
    queue: options.queue ?? null,
    logger: options.logger ?? false,
    ...(options.systemLogs === undefined ? {} : { systemLogs: options.systemLogs }),
    reddit: sim ? { apiUrl: sim.url, authUrl: sim.url } : null,
    ...(clock ? { clock } : {}),
  });
  const app = await buildApp({ ctx });
  await app.ready();
  if (options.listen) await app.listen({ host: '127.0.0.1', port });
  return {
    app,
    ctx,
    config,
    database,
    url: config.publicUrl,
    sim,
    async close() {
      await app.close();
      await sim?.close();
      await ctx.queue?.stop();
      await ctx.systemLogs?.close();
      await database.close();
    },
  };
}
