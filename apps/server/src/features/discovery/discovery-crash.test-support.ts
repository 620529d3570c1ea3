/**
 * A separate process that runs one discovery cycle and says after each committed read `commit {...}`,
 * then `report {...}`: the crash test kills it with SIGKILL in the middle and starts it again.
 * Environment: CRASH_DB_DIR (a PGlite directory) or DATABASE_URL, CRASH_SIM_URL, CRASH_NOW_MS,
 * SECRETS_KEYS and JWT_SECRET as the parent used them.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig, type Config } from '../../config/config';
import { createAppContext, type AppContext } from '../../context';
import { openDatabase, type Database } from '../../db/client';
import { fixedClock } from '../../test/clock.test-support';
import { runDiscoveryCycle } from './discovery-cycle.service';

export function crashConfig(env: Record<string, string>): Config {
  return loadConfig({
    NODE_ENV: 'test',
    PORT: '3999',
    HOST: '127.0.0.1',
    PUBLIC_URL: 'http://127.0.0.1:3999',
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'threadreach-crash-')),
    WEB_DIST_DIR: path.join(tmpdir(), 'threadreach-no-web'),
    LOG_LEVEL: 'silent',
    JOBS_ENABLED: 'false',
    ...env,
  });
}

/** The context a cycle runs with: no job queue, the simulator at `simUrl`, time standing at `nowMs`. */
export async function crashContext(
  config: Config,
  database: Database,
  simUrl: string,
  nowMs: number,
): Promise<AppContext> {
  return createAppContext({
    config,
    database,
    queue: null,
    logger: false,
    reddit: { apiUrl: simUrl, authUrl: simUrl },
    clock: fixedClock(nowMs),
  });
}

async function main() {
  const env = process.env;
  const config = crashConfig({ JWT_SECRET: env.JWT_SECRET!, SECRETS_KEYS: env.SECRETS_KEYS! });
  const database = await openDatabase({ url: env.DATABASE_URL, dataDir: env.CRASH_DB_DIR });
  const ctx = await crashContext(config, database, env.CRASH_SIM_URL!, Number(env.CRASH_NOW_MS));
  const report = await runDiscoveryCycle(ctx, {
    onCommit: (event) => process.stdout.write(`commit ${JSON.stringify(event)}\n`),
  });
  process.stdout.write(`report ${JSON.stringify(report)}\n`);
  await database.close();
}

if (process.env.CRASH_SIM_URL && process.argv[1] === import.meta.filename) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
