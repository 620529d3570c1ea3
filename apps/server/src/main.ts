import path from 'node:path';
import { startRedditSim } from '@threadreach/reddit-sim';
import { buildApp } from './app';
import { ConfigError, loadConfig } from './config/config';
import { createAppContext } from './context';
import { openDatabase } from './db/client';
import { seedDemoCredentials } from './features/credentials';
import { seedDemoUsers } from './features/dev-idp';
import { registerJobs } from './jobs/queue';
import { JOBS } from './jobs/registry';

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
  // The embedded default's Reddit: the simulator in this process, on a local port (a free one by default).
  const sim =
    config.reddit.kind === 'sim'
      ? await startRedditSim({
          port: config.reddit.port,
          host: '127.0.0.1',
          seed: config.reddit.seed,
          // Accounts connected in the demo stay connected when it is started again.
          grantsFile: path.join(config.dataDir, 'reddit-sim', 'refresh-grants.json'),
        })
      : null;
  const ctx = await createAppContext({
    config,
    database,
    reddit: sim ? { apiUrl: sim.url, authUrl: sim.url } : null,
  });
  if (config.sso.kind === 'dev') await seedDemoUsers(database.db);
  if (sim) {
    for (const credential of await seedDemoCredentials(ctx)) {
      sim.registerClient({
        clientId: credential.clientId,
        clientSecret: credential.clientSecret,
        type: 'web',
        redirectUri: `${config.publicUrl}/api/v1/auth/reddit/callback`,
        name: 'Threadreach',
      });
    }
  }
  const app = await buildApp({ ctx });
  if (ctx.queue) await registerJobs(ctx, ctx.queue, JOBS);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    ctx.log.info({ signal }, 'shutting down');
    await app.close();
    await ctx.queue?.stop();
    await ctx.systemLogs?.close();
    await sim?.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ host: config.host, port: config.port });
  ctx.log.info(
    {
      url: config.publicUrl,
      database: database.driver,
      signIn: config.sso.kind,
      demo: config.demoMode,
      reddit: sim ? `simulator at ${sim.url}` : ctx.reddit.endpoints?.apiUrl,
    },
    `Threadreach is running at ${config.publicUrl}`,
  );
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
