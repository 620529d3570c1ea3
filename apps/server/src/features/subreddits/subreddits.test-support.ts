import { randomUUID } from 'node:crypto';
import type { PgBoss } from 'pg-boss';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import type { QueueStarter } from '../../jobs/queue';
import { createCredential } from '../credentials';
import { keywords } from '../keywords/keywords.table';
import { subreddits, type SubredditRow } from './subreddits.table';

export interface Enqueued {
  name: string;
  data: unknown;
  options: { singletonKey?: string; startAfter?: Date };
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

/** An enabled search credential (the simulator takes any client id and secret). */
export async function addSearchCredential(ctx: AppContext): Promise<string> {
  const credential = await createCredential(ctx, {
    type: 'search',
    account_name: 'threadreach_search',
    client_id: `search-${randomUUID().slice(0, 12)}`,
    client_secret: `secret-${randomUUID()}`,
    enabled: true,
  });
  return credential.id;
}

export async function insertKeyword(
  db: Db,
  projectId: string,
  values: { keyword: string; type?: 'product' | 'icp'; approved?: boolean },
): Promise<string> {
  const [row] = await db
    .insert(keywords)
    .values({
      projectId,
      keyword: values.keyword,
      type: values.type ?? 'product',
      approved: !!values.approved,
    })
    .returning();
  return row!.id;
}

export async function insertSubreddit(
  db: Db,
  projectId: string,
  values: Partial<Omit<SubredditRow, 'id' | 'projectId'>> & { name: string },
): Promise<SubredditRow> {
  const [row] = await db
    .insert(subreddits)
    .values({ projectId, source: 'generated', ...values })
    .returning();
  return row!;
}
