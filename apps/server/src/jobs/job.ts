import type { z } from 'zod';
import type { AppContext } from '../context';

/** A background job: its queue name, the schema of its payload and its handler. */
export interface JobDefinition<S extends z.ZodType = z.ZodType> {
  name: string;
  schema: S;
  /** Cron expression (UTC) when the job runs on a schedule. */
  cron?: string;
  handler(ctx: AppContext, data: z.infer<S>): Promise<void>;
}

export function defineJob<S extends z.ZodType>(job: JobDefinition<S>): JobDefinition<S> {
  return job;
}
