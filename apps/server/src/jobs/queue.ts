import { PgBoss, fromPglite, type JobWithMetadata } from 'pg-boss';
import { z } from 'zod';
import type { AppContext } from '../context';
import type { Database } from '../db/client';
import { retryAtOf, type EnqueueOptions, type JobDefinition, type JobPolicy } from './job';

/** The Postgres-backed job queue (pg-boss), on PostgreSQL or on the embedded PGlite. */
export interface JobQueue {
  boss: PgBoss;
  isHealthy(): Promise<boolean>;
  /**
   * Checks the payload against the job's schema and queues the job. Null when the queue's policy
   * already holds a job with the same `singletonKey` (with `earliest`, one starting no later).
   */
  enqueue<S extends z.ZodType, P extends JobPolicy>(
    job: JobDefinition<S, P>,
    data: z.input<S>,
    options?: EnqueueOptions<P>,
  ): Promise<string | null>;
  stop(): Promise<void>;
}

/** Starts a job queue on the database; `onError` hears pg-boss's background errors. */
export type QueueStarter = (database: Database, onError: (error: Error) => void) => Promise<JobQueue>;

export class JobPayloadError extends Error {
  override name = 'JobPayloadError';
}

export const startQueue: QueueStarter = async (database, onError) => {
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
    async enqueue(job, data, options = {}) {
      const checked = job.schema.safeParse(data);
      if (!checked.success) {
        throw new JobPayloadError(`Invalid payload for job ${job.name}: ${z.prettifyError(checked.error)}`);
      }
      const { startAfter, singletonKey, earliest } = options as {
        startAfter?: Date;
        singletonKey?: string;
        earliest?: boolean;
      };
      if (singletonKey !== undefined && job.policy === 'standard') {
        throw new JobPayloadError(`Job ${job.name} has the standard policy, which ignores singletonKey`);
      }
      const send = () =>
        boss.send(job.name, data as object, {
          ...(startAfter ? { startAfter } : {}),
          ...(singletonKey !== undefined ? { singletonKey } : {}),
        });
      const id = await send();
      if (id || !earliest || singletonKey === undefined || !startAfter) return id;
      const startsAt = startAfter.getTime();
      const waiting = await boss.findJobs(job.name, { key: singletonKey, queued: true });
      const later = waiting.filter((j) => new Date(j.startAfter).getTime() > startsAt);
      if (later.length === 0) return null;
      await boss.cancel(
        job.name,
        later.map((j) => j.id),
      );
      return send();
    },
    stop: () => boss.stop({ graceful: true, timeout: 10_000 }),
  };
};

/**
 * Creates each job's queue with its policy and retries, attaches its worker, and schedules it when it
 * has a cron expression.
 */
export async function registerJobs(ctx: AppContext, queue: JobQueue, jobs: readonly JobDefinition[]) {
  for (const job of jobs) {
    await ensureQueue(queue.boss, job);
    await queue.boss.work<unknown, void, { includeMetadata: true }>(
      job.name,
      { includeMetadata: true },
      async (batch) => {
        for (const item of batch) await runJob(ctx, queue, job, item);
      },
    );
    if (job.cron) await queue.boss.schedule(job.name, job.cron, {}, { tz: 'UTC' });
  }
}

/**
 * One run of a job. An error carrying `retryAtMs` (a spent budget) queues the same job, data and key
 * for that instant and completes this run, so no worker waits and no retry is used up; any other
 * error fails the run for pg-boss to retry.
 */
async function runJob(ctx: AppContext, queue: JobQueue, job: JobDefinition, item: JobWithMetadata<unknown>) {
  const data: unknown = item.data ?? {};
  try {
    await job.handler(ctx, job.schema.parse(data));
  } catch (error) {
    const retryAtMs = retryAtOf(error);
    if (retryAtMs === null) throw error;
    const startAfter = new Date(retryAtMs);
    const next = await queue.boss.send(job.name, data as object, {
      startAfter,
      ...(item.singletonKey !== null ? { singletonKey: item.singletonKey } : {}),
    });
    // The error says why it waits (a spent budget, a pause Reddit asked for, a lease held elsewhere).
    ctx.log.info(
      {
        job: job.name,
        jobId: item.id,
        nextJobId: next,
        startAfter: startAfter.toISOString(),
        reason: (error as Error).message,
      },
      next ? 'job rescheduled for when it may run again' : 'job not rescheduled: an equal job is queued',
    );
  }
}

/**
 * pg-boss cannot change a queue's policy, so a queue left by an earlier version with another policy
 * is created again when it holds no waiting or running job, and refused otherwise.
 */
async function ensureQueue(boss: PgBoss, job: JobDefinition) {
  const retry = {
    retryLimit: job.retry.limit,
    retryDelay: job.retry.delaySeconds,
    retryBackoff: job.retry.backoff,
    ...(job.expireInSeconds ? { expireInSeconds: job.expireInSeconds } : {}),
  };
  await boss.createQueue(job.name, { policy: job.policy, ...retry });
  const stored = await boss.getQueue(job.name);
  if (stored && stored.policy !== job.policy) {
    const pending = (await boss.findJobs(job.name)).filter((j) =>
      ['created', 'retry', 'active'].includes(j.state),
    );
    if (pending.length > 0) {
      throw new Error(
        `Job queue ${job.name} has policy ${stored.policy}, not ${job.policy}, and ${pending.length} ` +
          'jobs pending; let them finish with the previous version before starting this one',
      );
    }
    await boss.deleteQueue(job.name);
    await boss.createQueue(job.name, { policy: job.policy, ...retry });
    return;
  }
  if (
    stored &&
    (stored.retryLimit !== retry.retryLimit ||
      stored.retryDelay !== retry.retryDelay ||
      stored.retryBackoff !== retry.retryBackoff ||
      (retry.expireInSeconds !== undefined && stored.expireInSeconds !== retry.expireInSeconds))
  ) {
    await boss.updateQueue(job.name, retry);
  }
}
