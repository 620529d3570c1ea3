/**
 * A separate process that sends DMs of one project with a person's Send, one after another, and says
 * `step <name> <dmId>` at each boundary of each send. At CRASH_KILL_STEP of the DM CRASH_KILL_DM it
 * SIGKILLs itself: the crash test then recovers what it left. Environment: CRASH_DB_DIR (a PGlite
 * directory) or DATABASE_URL, CRASH_SIM_URL, CRASH_NOW_MS, CRASH_PROJECT_ID, CRASH_DM_IDS (comma
 * separated), CRASH_KILL_STEP, CRASH_KILL_DM, and SECRETS_KEYS and JWT_SECRET as the parent used them.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Clock } from '../../clock';
import { loadConfig, type Config } from '../../config/config';
import { createAppContext, type AppContext } from '../../context';
import { openDatabase, type Database } from '../../db/client';
import { fixedClock } from '../../test/clock.test-support';
import { sendDmNow } from './sending.service';

export function crashConfig(env: Record<string, string>): Config {
  return loadConfig({
    NODE_ENV: 'test',
    PORT: '3999',
    HOST: '127.0.0.1',
    PUBLIC_URL: 'http://127.0.0.1:3999',
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'threadreach-send-crash-')),
    WEB_DIST_DIR: path.join(tmpdir(), 'threadreach-no-web'),
    LOG_LEVEL: 'silent',
    JOBS_ENABLED: 'false',
    ...env,
  });
}

/** A sender's context: no job queue, the simulator at `simUrl`, time from `clock`. */
export function crashContext(
  config: Config,
  database: Database,
  simUrl: string,
  clock: Clock,
): Promise<AppContext> {
  return createAppContext({
    config,
    database,
    queue: null,
    logger: false,
    reddit: { apiUrl: simUrl, authUrl: simUrl },
    clock,
  });
}

async function main() {
  const env = process.env;
  const config = crashConfig({ JWT_SECRET: env.JWT_SECRET!, SECRETS_KEYS: env.SECRETS_KEYS! });
  const database = await openDatabase({ url: env.DATABASE_URL, dataDir: env.CRASH_DB_DIR });
  const ctx = await crashContext(config, database, env.CRASH_SIM_URL!, fixedClock(Number(env.CRASH_NOW_MS)));
  for (const dmId of env.CRASH_DM_IDS!.split(',')) {
    try {
      await sendDmNow(
        ctx,
        env.CRASH_PROJECT_ID!,
        { dmId },
        {
          onStep: (step, id) => {
            process.stdout.write(`step ${step} ${id}\n`);
            if (step === env.CRASH_KILL_STEP && id === env.CRASH_KILL_DM)
              process.kill(process.pid, 'SIGKILL');
          },
        },
      );
    } catch (error) {
      // A refusal (4xx) is an answer; the next DM goes on.
      process.stdout.write(`refused ${dmId} ${(error as Error).message}\n`);
    }
  }
  process.stdout.write('done\n');
  await database.close();
}

if (process.env.CRASH_SIM_URL && process.argv[1] === import.meta.filename) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
