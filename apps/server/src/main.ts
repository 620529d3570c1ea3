import path from 'node:path';
import { buildApp } from './app';
import { ConfigError, loadConfig } from './config/config';
import { openDatabase } from './db/client';
import { cleanupAuthTokensJob } from './features/auth/cleanup-auth-tokens.job';
import { seedDemoUsers } from './features/dev-idp/dev-idp.seed';
import { registerJobs, startQueue, type JobQueue } from './jobs/queue';

/** Every job the workers run. */
export const JOBS = [cleanupAuthTokensJob];

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  const database = await openDatabase({
    url: config.databaseUrl,
    dataDir: path.join(config.dataDir, 'pglite'),
  });
  await database.migrate();
  const app = await buildApp({ config, database });
  const queue: JobQueue | null = config.jobsEnabled
    ? await startQueue(database, (err) => app.log.error({ err }, 'job queue error'))
    : null;
  app.ctx.queue = queue;
  if (config.sso.kind === 'dev') await seedDemoUsers(database.db);
  if (queue) await registerJobs(app.ctx, queue, JOBS);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    await app.close();
    await queue?.stop();
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ host: config.host, port: config.port });
  app.log.info(
    { url: config.publicUrl, database: database.driver, signIn: config.sso.kind, demo: config.demoMode },
    `Threadreach is running at ${config.publicUrl}`,
  );
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
