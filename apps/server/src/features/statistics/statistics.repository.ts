import { and, asc, count, eq, gte, inArray, isNotNull, lt, or, sql, type SQL } from 'drizzle-orm';
import { unionAll, type AnyPgColumn } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client';
import { redditAccounts } from '../accounts/accounts.table';
import { discoverySearches } from '../discovery/discovery.table';
import { failedToSend } from '../dms';
import { dmMessages } from '../dms/dms.table';
import { keywords } from '../keywords/keywords.table';
import { leads } from '../leads/leads.table';
import { projects } from '../projects/projects.table';
import { dmReplies } from '../replies/replies.table';
import { subreddits } from '../subreddits/subreddits.table';

/** Instants from `from` (included) to `to` (excluded): whole UTC days. */
export interface TimeRange {
  from: Date;
  to: Date;
}

/** What the counts are made of, each from its own rows and its own instant. */
export const METRICS = [
  'posts',
  'comments',
  'generated',
  'sent',
  'failed',
  'expired',
  'replies',
  'searches',
] as const;
export type Metric = (typeof METRICS)[number];

export interface MetricCount {
  projectId: string;
  day: string;
  metric: Metric;
  n: number;
}

const utcDay = (column: AnyPgColumn) => sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD')`;
const literal = (metric: Metric) => sql<Metric>`${metric}::text`;
const n = sql<number>`count(*)::int`;

/**
 * How many of each metric happened per project and UTC day (days with nothing are left out), over every
 * project or one. Each metric counts its own rows by its own instant:
 * - posts and comments: leads by found_at (dismissed ones too: they were found);
 * - generated: DMs by created_at, whatever became of them;
 * - sent and failed: DMs in that state by sent_at and failed_at (not those held back because of their
 *   person: `failedToSend`);
 * - expired: expired DMs by updated_at, the instant they expired (nothing changes them afterwards);
 * - replies: replies received, by received_at;
 * - searches: searches run, by started_at.
 */
export async function countByDay(db: DbOrTx, range: TimeRange, projectId?: string): Promise<MetricCount[]> {
  const within = (time: AnyPgColumn, project: AnyPgColumn, ...more: SQL[]) =>
    and(gte(time, range.from), lt(time, range.to), projectId ? eq(project, projectId) : undefined, ...more);
  const dmQuery = (metric: Metric, time: AnyPgColumn, ...state: SQL[]) =>
    db
      .select({ projectId: dmMessages.projectId, day: utcDay(time), metric: literal(metric), n })
      .from(dmMessages)
      .where(within(time, dmMessages.projectId, ...state))
      .groupBy(dmMessages.projectId, utcDay(time));
  const leadDay = utcDay(leads.foundAt);
  const leadMetric = sql<Metric>`case ${leads.kind} when 'post' then 'posts' else 'comments' end`;
  const leadQuery = db
    .select({ projectId: leads.projectId, day: leadDay, metric: leadMetric, n })
    .from(leads)
    .where(within(leads.foundAt, leads.projectId))
    .groupBy(leads.projectId, leadDay, leads.kind);
  const replyDay = utcDay(dmReplies.receivedAt);
  const replyQuery = db
    .select({ projectId: dmReplies.projectId, day: replyDay, metric: literal('replies'), n })
    .from(dmReplies)
    .where(within(dmReplies.receivedAt, dmReplies.projectId))
    .groupBy(dmReplies.projectId, replyDay);
  const searchDay = utcDay(discoverySearches.startedAt);
  const searchQuery = db
    .select({ projectId: discoverySearches.projectId, day: searchDay, metric: literal('searches'), n })
    .from(discoverySearches)
    .where(within(discoverySearches.startedAt, discoverySearches.projectId))
    .groupBy(discoverySearches.projectId, searchDay);
  return unionAll(
    dmQuery('generated', dmMessages.createdAt),
    dmQuery('sent', dmMessages.sentAt, eq(dmMessages.state, 'sent')),
    dmQuery('failed', dmMessages.failedAt, failedToSend),
    dmQuery('expired', dmMessages.updatedAt, eq(dmMessages.state, 'expired')),
    leadQuery,
    replyQuery,
    searchQuery,
  );
}

/** Of the project's DMs sent in the range, how many were sent and how many have at least one reply. */
export async function countAnswered(
  db: DbOrTx,
  projectId: string,
  range: TimeRange,
): Promise<{ sent: number; answered: number }> {
  const replied = sql`exists (select 1 from ${dmReplies} where ${dmReplies.dmId} = ${dmMessages.id})`;
  const [row] = await db
    .select({ sent: n, answered: sql<number>`(count(*) filter (where ${replied}))::int` })
    .from(dmMessages)
    .where(
      and(
        eq(dmMessages.projectId, projectId),
        eq(dmMessages.state, 'sent'),
        gte(dmMessages.sentAt, range.from),
        lt(dmMessages.sentAt, range.to),
      ),
    );
  return { sent: row?.sent ?? 0, answered: row?.answered ?? 0 };
}

export interface ProjectFacts {
  id: string;
  name: string;
  accounts: number;
  approvedKeywords: number;
  approvedSubreddits: number;
}

/** Names and what the projects stand on now: connected accounts, approved keywords and subreddits. */
export async function projectFacts(db: DbOrTx, projectIds: string[]): Promise<ProjectFacts[]> {
  if (projectIds.length === 0) return [];
  const [names, accounts, kws, subs] = await Promise.all([
    db
      .select({ id: projects.id, name: projects.name })
      .from(projects)
      .where(inArray(projects.id, projectIds)),
    db
      .select({ projectId: redditAccounts.projectId, n: count() })
      .from(redditAccounts)
      .where(inArray(redditAccounts.projectId, projectIds))
      .groupBy(redditAccounts.projectId),
    db
      .select({ projectId: keywords.projectId, n: count() })
      .from(keywords)
      .where(and(inArray(keywords.projectId, projectIds), eq(keywords.approved, true)))
      .groupBy(keywords.projectId),
    db
      .select({ projectId: subreddits.projectId, n: count() })
      .from(subreddits)
      .where(and(inArray(subreddits.projectId, projectIds), eq(subreddits.approved, true)))
      .groupBy(subreddits.projectId),
  ]);
  const byProject = (rows: { projectId: string; n: number }[]) =>
    new Map(rows.map((r) => [r.projectId, r.n]));
  const [a, k, s] = [byProject(accounts), byProject(kws), byProject(subs)];
  return names.map((p) => ({
    id: p.id,
    name: p.name,
    accounts: a.get(p.id) ?? 0,
    approvedKeywords: k.get(p.id) ?? 0,
    approvedSubreddits: s.get(p.id) ?? 0,
  }));
}

export interface SubredditCount {
  projectId: string;
  subreddit: string;
  posts: number;
  dmsSent: number;
}

/** Posts found and DMs sent per project and subreddit (names compared without case) in the range. */
export async function countBySubreddit(
  db: DbOrTx,
  projectIds: string[],
  range: TimeRange,
): Promise<SubredditCount[]> {
  if (projectIds.length === 0) return [];
  const posts = db
    .select({
      projectId: leads.projectId,
      subreddit: sql<string>`lower(${leads.subreddit})`.as('subreddit'),
      name: sql<string>`max(${leads.subreddit})`.as('name'),
      posts: sql<number>`count(*)::int`.as('posts'),
      dmsSent: sql<number>`0`.as('dms_sent'),
    })
    .from(leads)
    .where(
      and(
        inArray(leads.projectId, projectIds),
        eq(leads.kind, 'post'),
        gte(leads.foundAt, range.from),
        lt(leads.foundAt, range.to),
      ),
    )
    .groupBy(leads.projectId, sql`lower(${leads.subreddit})`);
  const sent = db
    .select({
      projectId: dmMessages.projectId,
      subreddit: sql<string>`lower(${dmMessages.subreddit})`.as('subreddit'),
      name: sql<string>`max(${dmMessages.subreddit})`.as('name'),
      posts: sql<number>`0`.as('posts'),
      dmsSent: sql<number>`count(*)::int`.as('dms_sent'),
    })
    .from(dmMessages)
    .where(
      and(
        inArray(dmMessages.projectId, projectIds),
        eq(dmMessages.state, 'sent'),
        sql`${dmMessages.subreddit} is not null`,
        gte(dmMessages.sentAt, range.from),
        lt(dmMessages.sentAt, range.to),
      ),
    )
    .groupBy(dmMessages.projectId, sql`lower(${dmMessages.subreddit})`);
  const rows = await unionAll(posts, sent);
  const merged = new Map<string, SubredditCount>();
  for (const row of rows) {
    const key = `${row.projectId}/${row.subreddit}`;
    const seen = merged.get(key);
    if (seen) {
      seen.posts += Number(row.posts);
      seen.dmsSent += Number(row.dmsSent);
    } else {
      merged.set(key, {
        projectId: row.projectId,
        subreddit: row.name,
        posts: Number(row.posts),
        dmsSent: Number(row.dmsSent),
      });
    }
  }
  return [...merged.values()];
}

export interface AccountCount {
  projectId: string;
  /** Null for a Reddit account removed from the project since it sent. */
  accountId: string | null;
  username: string;
  sent: number;
  failed: number;
}

/**
 * Every connected account of the projects, with the DMs it sent and failed in the range, then every
 * Reddit account removed since that sent or failed one there in the range, so the breakdown adds up to
 * the project's totals.
 */
export async function countByAccount(
  db: DbOrTx,
  projectIds: string[],
  range: TimeRange,
): Promise<AccountCount[]> {
  if (projectIds.length === 0) return [];
  const inRange = (time: AnyPgColumn) => and(gte(time, range.from), lt(time, range.to));
  const sentHere = and(eq(dmMessages.state, 'sent'), inRange(dmMessages.sentAt));
  const failedHere = and(failedToSend, inRange(dmMessages.failedAt));
  const sent = sql<number>`(count(${dmMessages.id}) filter (where ${dmMessages.state} = 'sent'))::int`;
  const failed = sql<number>`(count(${dmMessages.id}) filter (where ${failedToSend}))::int`;
  const [connected, removed] = await Promise.all([
    db
      .select({
        projectId: redditAccounts.projectId,
        accountId: redditAccounts.id,
        username: redditAccounts.redditUsername,
        sent,
        failed,
      })
      .from(redditAccounts)
      // By the Reddit account that sent them, not its connection: removed and connected again, its sends stay.
      .leftJoin(
        dmMessages,
        and(
          eq(dmMessages.projectId, redditAccounts.projectId),
          eq(dmMessages.senderKey, sql`lower(${redditAccounts.redditUsername})`),
          or(sentHere, failedHere),
        ),
      )
      .where(inArray(redditAccounts.projectId, projectIds))
      .groupBy(redditAccounts.projectId, redditAccounts.id, redditAccounts.redditUsername)
      .orderBy(asc(redditAccounts.redditUsername)),
    db
      .select({
        projectId: dmMessages.projectId,
        accountId: sql<null>`null`,
        username: sql<string>`${dmMessages.senderKey}`,
        sent,
        failed,
      })
      .from(dmMessages)
      .where(
        and(
          inArray(dmMessages.projectId, projectIds),
          isNotNull(dmMessages.senderKey),
          or(sentHere, failedHere),
          sql`not exists (select 1 from ${redditAccounts}
            where ${redditAccounts.projectId} = ${dmMessages.projectId}
              and lower(${redditAccounts.redditUsername}) = ${dmMessages.senderKey})`,
        ),
      )
      .groupBy(dmMessages.projectId, dmMessages.senderKey)
      .orderBy(asc(dmMessages.senderKey)),
  ]);
  return [...connected, ...removed];
}

// ---- the project's accounts, for the admin actions ----------------------------------------------------

export async function listProjectAccounts(db: DbOrTx, projectId: string) {
  return db
    .select()
    .from(redditAccounts)
    .where(eq(redditAccounts.projectId, projectId))
    .orderBy(asc(redditAccounts.redditUsername));
}

/** Today's quota of each of the project's accounts counts from `now` on; returns how many accounts. */
export async function resetQuotas(db: DbOrTx, projectId: string, now: Date): Promise<number> {
  const rows = await db
    .update(redditAccounts)
    .set({ quotaResetAt: now, updatedAt: now })
    .where(eq(redditAccounts.projectId, projectId))
    .returning({ id: redditAccounts.id });
  return rows.length;
}

/** Reddit accepted the account's grant just now. */
export async function markAuthChecked(db: DbOrTx, accountId: string, now: Date): Promise<void> {
  await db
    .update(redditAccounts)
    .set({ authCheckedAt: now, updatedAt: now })
    .where(eq(redditAccounts.id, accountId));
}
