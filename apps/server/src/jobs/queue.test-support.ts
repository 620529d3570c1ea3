import { randomUUID } from 'node:crypto';
import type { PgBoss } from 'pg-boss';
import type { QueueStarter } from './queue';

export interface Enqueued {
  name: string;
  data: unknown;
  options: { singletonKey?: string; startAfter?: Date; earliest?: boolean };
}

/**
 * A job queue that records what was queued and runs nothing, so a test drives each job's handler itself,
 * on its own clock, without a worker of some other test picking the job up.
 */
export function recordingQueue(): { starter: QueueStarter; jobs: Enqueued[] } {
  const jobs: Enqueued[] = [];
  const starter: QueueStarter = async () => ({
    boss: null as unknown as PgBoss,
    isHealthy: async () => true,
    async enqueue(job, data, options = {}) {
      jobs.push({ name: job.name, data: job.schema.parse(data), options: options as Enqueued['options'] });
      return randomUUID();
    },
    stop: async () => {},
  });
  return { starter, jobs };
}
