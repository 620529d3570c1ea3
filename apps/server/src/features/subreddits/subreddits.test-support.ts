import { randomUUID } from 'node:crypto';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { createCredential } from '../credentials';
import { keywords } from '../keywords/keywords.table';
import { subreddits, type SubredditRow } from './subreddits.table';

export { recordingQueue, type Enqueued } from '../../jobs/queue.test-support';

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
