import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { projects } from '../projects/projects.table';
import { redditAccounts, type RedditAccountRow } from './accounts.table';

/**
 * A connected account as a finished sign-in stores it, 400 days old by default. Without a credential and
 * a refresh token it has no authentication: give them for an account that must reach Reddit.
 */
export async function buildAccount(
  db: Db,
  projectId: string,
  overrides: Partial<typeof redditAccounts.$inferInsert> & { ageDays?: number; now?: number } = {},
): Promise<RedditAccountRow> {
  const { ageDays = 400, now = Date.now(), ...values } = overrides;
  const [project] = await db
    .select({ userId: projects.userId })
    .from(projects)
    .where(eq(projects.id, projectId));
  const [row] = await db
    .insert(redditAccounts)
    .values({
      projectId,
      ownerUserId: project!.userId,
      redditUsername: `seller_${randomUUID().slice(0, 8)}`,
      accountCreatedAt: new Date(now - ageDays * 86_400_000),
      commentKarma: 120,
      linkKarma: 30,
      authStatus: 'valid',
      ...values,
    })
    .returning();
  return row!;
}
