import { PgBoss, fromPglite } from 'pg-boss';
import type { AppContext } from '../context';
import type { Database } from '../db/client';
import type { JobDefinition } from './job';

/** The Postgres-backed job queue (pg-boss), on PostgreSQL or on the embedded PGlite. */
export interface JobQueue {
  boss: PgBoss;
  isHealthy(): Promise<boolean>;
  send(name: string, data: object): Promise<string | null>;
  stop(): Promise<void>;
}

export async function startQueue(
  database: Database,
  onError: (error: Error) => void = () => {},
): Promise<JobQueue> {
  const boss = database.pglite
    ? new PgBoss({ db: fromPglite(database.pglite), backend: 'pglite' })
    : new PgBoss({ connectionString: database.url!, max: 4, application_name: 'threadreach-jobs' });
  // Without a listener an 'error' event would end the process; it is logged and /health reports it.
  boss.on('error', onError);
  await boss.start();
  return {
    boss,
    async isHealthy() {
      try {
        await boss.getQueues();
        return true;
      } catch {
        return false;
      }
    },
    send: (name, data) => boss.send(name, data),
    stop: () => boss.stop({ graceful: true, timeout: 10_000 }),
  };
}

/** Creates each job's queue, attaches its worker, and schedules it when it has a cron expression. */
export async function registerJobs(ctx: AppContext, queue: JobQueue, jobs: JobDefinition[]): Promise<void> {
  for (const job of jobs) {
    await queue.boss.createQueue(job.name);
    await queue.boss.work(job.name, async (batch) => {
      for (const item of batch) {
        const data = job.schema.parse(item.data ?? {});
        await job.handler(ctx, data);
      }
    });
    if (job.cron) await queue.boss.schedule(job.name, job.cron, {}, { tz: 'UTC' });
  }
}
