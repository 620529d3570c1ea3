import type { z } from 'zod';
import type { AppContext } from '../context';

/**
 * How pg-boss admits jobs of one queue (per `singletonKey` when one is given): `standard` takes every
 * job; `short` keeps one queued; `singleton` runs one at a time; `stately` keeps one queued and one
 * running. `exclusive` is not offered: a job that reschedules itself must be able to queue its
 * successor while it is still running.
 */
export type JobPolicy = 'standard' | 'short' | 'singleton' | 'stately';

/** pg-boss's retries of a failed run (a thrown error); a spent budget reschedules instead. */
export interface JobRetry {
  limit: number;
  delaySeconds: number;
  /** Doubles the delay on each retry. */
  backoff: boolean;
}

/** A background job: its queue name, payload schema, queue policy, retries and handler. */
export interface JobDefinition<S extends z.ZodType = z.ZodType, P extends JobPolicy = JobPolicy> {
  name: string;
  schema: S;
  policy: P;
  retry: JobRetry;
  /** Cron expression (UTC) when the job runs on a schedule. */
  cron?: string;
  /**
   * How long one run may stay active before pg-boss counts it lost and runs it again (default 15
   * minutes): a worker killed mid-run holds its job, and any chain behind it, this long.
   */
  expireInSeconds?: number;
  /**
   * Runs one job. It never sleeps: an error with a numeric `retryAtMs` (epoch milliseconds), such as
   * a spent Reddit budget, reschedules the job for that instant.
   */
  handler(ctx: AppContext, data: z.output<S>): Promise<void>;
}

/** A job definition typed by its schema; list it in `jobs/registry.ts` so workers run it. */
export function defineJob<S extends z.ZodType, P extends JobPolicy>(
  job: JobDefinition<S, P>,
): JobDefinition<S, P> {
  return job;
}

/** When a job should start, and which key it is unique by under its queue's policy. */
export type EnqueueOptions<P extends JobPolicy = JobPolicy> = {
  startAfter?: Date;
} & (P extends 'standard'
  ? { singletonKey?: never; earliest?: never }
  : {
      singletonKey?: string;
      /**
       * With `startAfter`: a job already waiting under the same key that would start later is cancelled
       * for this one: the earlier start wins, where otherwise the first job queued would.
       */
      earliest?: boolean;
    });

/** The instant a failed run may be retried, when its error names one (`retryAtMs`, epoch ms). */
export function retryAtOf(error: unknown): number | null {
  if (typeof error !== 'object' || error === null || !('retryAtMs' in error)) return null;
  const at = error.retryAtMs;
  return typeof at === 'number' && Number.isFinite(at) ? at : null;
}
