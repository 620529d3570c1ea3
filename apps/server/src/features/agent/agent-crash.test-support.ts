/**
 * A separate process that runs one scheduled agent run and SIGKILLs itself at CRASH_KILL_STEP: the
 * crash test then starts the run again from what it left. Environment: CRASH_DB_DIR (a PGlite
 * directory) or DATABASE_URL, CRASH_SIM_URL, CRASH_NOW_MS, CRASH_PROJECT_ID, CRASH_KILL_STEP, and
 * SECRETS_KEYS and JWT_SECRET as the parent used them.
 */
import { createAppContext } from '../../context';
import { openDatabase } from '../../db/client';
import { recordingQueue } from '../../jobs/queue.test-support';
import { fixedClock } from '../../test/clock.test-support';
import { crashConfig } from '../sending/sending-crash.test-support';
import { runScheduled } from './agent-run.job';

async function main() {
  const env = process.env;
  const config = crashConfig({ JWT_SECRET: env.JWT_SECRET!, SECRETS_KEYS: env.SECRETS_KEYS! });
  const database = await openDatabase({ url: env.DATABASE_URL, dataDir: env.CRASH_DB_DIR });
  const ctx = await createAppContext({
    config,
    database,
    // The search needs a queue to start; nothing runs from it here.
    queue: recordingQueue().starter,
    logger: false,
    reddit: { apiUrl: env.CRASH_SIM_URL!, authUrl: env.CRASH_SIM_URL! },
    clock: fixedClock(Number(env.CRASH_NOW_MS)),
  });
  await runScheduled(ctx, env.CRASH_PROJECT_ID!, {
    onStep: (step) => {
      process.stdout.write(`step ${step}\n`);
      if (step === env.CRASH_KILL_STEP) process.kill(process.pid, 'SIGKILL');
    },
  });
  process.stdout.write('done\n');
  await database.close();
}

if (process.env.CRASH_SIM_URL && process.argv[1] === import.meta.filename) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
