import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { buildLead } from '../leads/leads.test-support';
import { projects } from '../projects/projects.table';
import { dmMessages, type DmMessageRow } from './dms.table';

/** A DM about a post lead of the project (its own lead unless `leadId` is given); approved by default. */
export async function buildDm(
  db: Db,
  projectId: string,
  overrides: Partial<typeof dmMessages.$inferInsert> = {},
): Promise<DmMessageRow> {
  const [project] = await db.select().from(projects).where(eq(projects.id, projectId));
  const lead = overrides.leadId === undefined ? await buildLead(db, projectId) : null;
  const recipient = overrides.recipientUsername ?? lead?.author ?? 'someone';
  const text = overrides.messageContent ?? `Hi ${recipient}, saw your post. Want to try our tool?`;
  const at = overrides.createdAt ?? new Date('2030-01-01T00:02:00Z');
  const [row] = await db
    .insert(dmMessages)
    .values({
      projectId,
      ownerUserId: project!.userId,
      sourceType: 'post',
      leadId: lead?.id ?? null,
      redditPostId: lead?.itemName ?? `t3_${randomUUID().slice(0, 8)}`,
      postTitle: lead?.item.title ?? 'Looking for a tool',
      postContent: lead?.item.body ?? 'Any recommendations?',
      subreddit: lead?.subreddit ?? 'saas',
      matchedKeywords: ['crm'],
      recipientUsername: recipient,
      recipientKey: recipient.toLowerCase(),
      subject: 'Re: Looking for a tool',
      messageContent: text,
      originalContent: text,
      createdAt: at,
      updatedAt: at,
      ...overrides,
    })
    .returning();
  return row!;
}
