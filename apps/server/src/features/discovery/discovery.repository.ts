import { and, asc, desc, eq, gt, gte, inArray, isNull, lt, notExists, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client';
import { discoveryFilters, keywords } from '../keywords/keywords.table';
import { insertLeads, upsertProfiles, type NewLead } from '../leads';
import { leads, type LeadRow } from '../leads/leads.table';
import { projects } from '../projects/projects.table';
import { subreddits } from '../subreddits/subreddits.table';
import {
  discoveryCursors,
  discoverySearches,
  discoveryStreams,
  redditAuthors,
  redditAuthorsUnanswered,
  redditItems,
  type DiscoveryCursorRow,
} from './discovery.table';
import type { ProjectRules } from './matcher';

/** Reddit serves at most this many names in one multireddit path. */
export const GROUP_SIZE = 100;

export type StreamKind = 't3' | 't1';
export type NewRedditItem = typeof redditItems.$inferInsert;

/**
 * What every project (or one) looks for: approved keywords, negative keywords, exclusions and approved
 * subreddits. Projects with no approved subreddit, or with neither approved keywords nor
 * `without_keywords`, look for nothing and are left out.
 */
export async function loadProjectRules(db: DbOrTx, projectId?: string): Promise<ProjectRules[]> {
  const onlyProject = (column: AnyPgColumn) => (projectId ? eq(column, projectId) : undefined);
  const [subs, kws, filters, flags] = await Promise.all([
    db
      .select({ projectId: subreddits.projectId, name: sql<string>`lower(${subreddits.name})` })
      .from(subreddits)
      .where(and(eq(subreddits.approved, true), onlyProject(subreddits.projectId))),
    db
      .select({ projectId: keywords.projectId, keyword: keywords.keyword })
      .from(keywords)
      .where(and(eq(keywords.approved, true), onlyProject(keywords.projectId)))
      .orderBy(asc(keywords.createdAt), asc(keywords.keyword)),
    db.select().from(discoveryFilters).where(onlyProject(discoveryFilters.projectId)),
    db
      .select({ id: projects.id, withoutKeywords: projects.withoutKeywords })
      .from(projects)
      .where(projectId ? eq(projects.id, projectId) : undefined),
  ]);
  const rules = new Map<string, ProjectRules>();
  for (const s of subs) {
    let r = rules.get(s.projectId);
    if (!r) {
      r = {
        projectId: s.projectId,
        keywords: [],
        negativeKeywords: [],
        subreddits: [],
        excludedSubreddits: [],
        excludedAuthors: [],
        withoutKeywords: false,
      };
      rules.set(s.projectId, r);
    }
    if (!r.subreddits.includes(s.name)) r.subreddits.push(s.name);
  }
  for (const k of kws) {
    const r = rules.get(k.projectId);
    if (r && !r.keywords.some((x) => x.toLowerCase() === k.keyword.toLowerCase())) r.keywords.push(k.keyword);
  }
  for (const f of filters) {
    const r = rules.get(f.projectId);
    if (!r) continue;
    r.negativeKeywords = f.negativeKeywords;
    r.excludedSubreddits = f.excludedSubreddits.map((s) => s.toLowerCase().replace(/^\/?r\//, ''));
    r.excludedAuthors = f.excludedAuthors.map((a) => a.toLowerCase().replace(/^\/?u\//, ''));
  }
  for (const p of flags) {
    const r = rules.get(p.id);
    if (r) r.withoutKeywords = p.withoutKeywords;
  }
  return [...rules.values()]
    .filter((r) => r.withoutKeywords || r.keywords.length > 0)
    .sort((a, b) => a.projectId.localeCompare(b.projectId));
}

/** Every subreddit some project approved, lower-case. */
export async function approvedSubredditUnion(db: DbOrTx): Promise<string[]> {
  const rows = await db
    .selectDistinct({ name: sql<string>`lower(${subreddits.name})` })
    .from(subreddits)
    .where(eq(subreddits.approved, true));
  return rows.map((r) => r.name).sort();
}

export interface StreamGroups {
  /** Group number -> its subreddits (lower-case), in a stable order. */
  groups: Map<number, string[]>;
  /** Groups that lost a subreddit just now: their cursor may name an item no longer in their listing. */
  shrunk: Set<number>;
}

/**
 * Makes the streams the wanted subreddits: a subreddit nobody approves any more leaves its group, a new one
 * joins the lowest-numbered group with room. Groups left empty lose their cursors.
 */
export async function syncStreams(db: DbOrTx, wanted: string[], now: Date): Promise<StreamGroups> {
  return db.transaction(async (tx) => {
    // Two cycles at once must not place the same subreddit twice.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('discovery_streams'))`);
    const current = await tx.select().from(discoveryStreams);
    const want = new Set(wanted);
    const leaving = current.filter((s) => !want.has(s.subreddit));
    const staying = current.filter((s) => want.has(s.subreddit));
    if (leaving.length > 0) {
      await tx.delete(discoveryStreams).where(
        inArray(
          discoveryStreams.subreddit,
          leaving.map((s) => s.subreddit),
        ),
      );
    }
    const sizes = new Map<number, number>();
    for (const s of staying) sizes.set(s.groupNo, (sizes.get(s.groupNo) ?? 0) + 1);
    const known = new Set(staying.map((s) => s.subreddit));
    const joining = [...want].filter((s) => !known.has(s)).sort();
    const added: { subreddit: string; groupNo: number; joinedAt: Date }[] = [];
    for (const subreddit of joining) {
      let groupNo = 0;
      while ((sizes.get(groupNo) ?? 0) >= GROUP_SIZE) groupNo++;
      sizes.set(groupNo, (sizes.get(groupNo) ?? 0) + 1);
      added.push({ subreddit, groupNo, joinedAt: now });
    }
    if (added.length > 0) await tx.insert(discoveryStreams).values(added).onConflictDoNothing();

    const groups = new Map<number, string[]>();
    for (const s of [...staying, ...added].sort(
      (a, b) => a.joinedAt.getTime() - b.joinedAt.getTime() || a.subreddit.localeCompare(b.subreddit),
    )) {
      groups.set(s.groupNo, [...(groups.get(s.groupNo) ?? []), s.subreddit]);
    }
    const shrunk = new Set(leaving.map((s) => s.groupNo));
    const emptied = [...shrunk].filter((g) => !groups.has(g));
    if (emptied.length > 0)
      await tx.delete(discoveryCursors).where(inArray(discoveryCursors.groupNo, emptied));
    for (const g of emptied) shrunk.delete(g);
    return { groups, shrunk };
  });
}

export async function findCursor(
  db: DbOrTx,
  groupNo: number,
  kind: StreamKind,
): Promise<DiscoveryCursorRow | null> {
  const rows = await db
    .select()
    .from(discoveryCursors)
    .where(and(eq(discoveryCursors.groupNo, groupNo), eq(discoveryCursors.kind, kind)))
    .limit(1);
  return rows[0] ?? null;
}

export async function listCursors(db: DbOrTx): Promise<DiscoveryCursorRow[]> {
  return db
    .select()
    .from(discoveryCursors)
    .orderBy(asc(discoveryCursors.groupNo), asc(discoveryCursors.kind));
}

/** A group's first cursor: it starts at the newest item there is (or none, for an empty listing). */
export async function insertCursor(
  db: DbOrTx,
  values: { groupNo: number; kind: StreamKind; beforeName: string | null; newestCreatedAt: Date | null },
  now: Date,
): Promise<void> {
  await db
    .insert(discoveryCursors)
    .values({ ...values, missedItems: 0, updatedAt: now })
    .onConflictDoNothing();
}

export class CursorMovedError extends Error {
  override name = 'CursorMovedError';
  constructor(groupNo: number, kind: string) {
    super(`Cursor of group ${groupNo} (${kind}) was moved by another cycle`);
  }
}

export interface CursorMove {
  groupNo: number;
  kind: StreamKind;
  /** The cursor as this read found it: the move applies only if it is still there. */
  expectedBefore: string | null;
  /** The new position, or null to keep it (only `updated_at` and missed items change). */
  next: { beforeName: string; newestCreatedAt: Date } | null;
  missed: number;
}

export interface PageWrite {
  items: NewRedditItem[];
  leads: NewLead[];
  cursor?: CursorMove;
  /** Subreddit rows whose first backfill this write completes. */
  backfilledSubredditIds?: string[];
}

/**
 * One read's results in one transaction: the matched items, their leads (a lead the project already has
 * is left alone), the people behind new leads, and the cursor moved past the read. The cursor moves only
 * from where this read found it, so a second cycle running at once rolls back instead of skipping items.
 */
export async function writePage(db: DbOrTx, write: PageWrite, now: Date): Promise<LeadRow[]> {
  return db.transaction(async (tx) => {
    if (write.cursor) await moveCursor(tx, write.cursor, now);
    if (write.items.length > 0) {
      await tx
        .insert(redditItems)
        .values(write.items)
        .onConflictDoUpdate({ target: redditItems.name, set: { score: sql`excluded.score` } });
    }
    const created = await insertLeads(tx, write.leads);
    await upsertProfiles(tx, created);
    if (write.backfilledSubredditIds?.length) {
      await tx
        .update(subreddits)
        .set({ backfilledAt: now })
        .where(inArray(subreddits.id, write.backfilledSubredditIds));
    }
    return created;
  });
}

async function moveCursor(db: DbOrTx, move: CursorMove, now: Date): Promise<void> {
  const moved = await db
    .update(discoveryCursors)
    .set({
      ...(move.next ? { beforeName: move.next.beforeName, newestCreatedAt: move.next.newestCreatedAt } : {}),
      missedItems: sql`${discoveryCursors.missedItems} + ${move.missed}`,
      updatedAt: now,
    })
    .where(
      and(
        eq(discoveryCursors.groupNo, move.groupNo),
        eq(discoveryCursors.kind, move.kind),
        sql`${discoveryCursors.beforeName} is not distinct from ${move.expectedBefore}`,
      ),
    )
    .returning({ groupNo: discoveryCursors.groupNo });
  if (moved.length === 0) throw new CursorMovedError(move.groupNo, move.kind);
}

export interface PendingBackfill {
  subredditId: string;
  projectId: string;
  name: string;
}

/** Approved subreddits of these projects whose first backfill has not run, oldest approval first. */
export async function pendingBackfills(
  db: DbOrTx,
  limit: number,
  projectIds: string[],
): Promise<PendingBackfill[]> {
  if (projectIds.length === 0) return [];
  return db
    .select({ subredditId: subreddits.id, projectId: subreddits.projectId, name: subreddits.name })
    .from(subreddits)
    .where(
      and(
        eq(subreddits.approved, true),
        isNull(subreddits.backfilledAt),
        inArray(subreddits.projectId, projectIds),
      ),
    )
    .orderBy(sql`${subreddits.approvedAt} asc nulls first`, asc(subreddits.createdAt), asc(subreddits.id))
    .limit(limit);
}

/**
 * Authors of recent leads with nothing in the shared author cache yet, most recently found first
 * (optionally only those of one project's leads, or only the given names). Those Reddit left unanswered
 * come after the others, the longest unanswered first, so the same failing ones never lead every list.
 */
export async function authorsToEnrich(
  db: DbOrTx,
  options: { limit: number; since: Date; projectId?: string; names?: string[] },
): Promise<string[]> {
  const unansweredAt = sql`max(${redditAuthorsUnanswered.unansweredAt})`;
  const rows = await db
    .select({ author: leads.author, last: sql<Date>`max(${leads.foundAt})` })
    .from(leads)
    .leftJoin(redditAuthors, eq(redditAuthors.nameLower, sql`lower(${leads.author})`))
    .leftJoin(redditAuthorsUnanswered, eq(redditAuthorsUnanswered.nameLower, sql`lower(${leads.author})`))
    .where(
      and(
        isNull(redditAuthors.nameLower),
        gte(leads.foundAt, options.since),
        sql`${leads.author} <> '[deleted]'`,
        options.projectId ? eq(leads.projectId, options.projectId) : undefined,
        options.names ? inArray(leads.author, options.names.length ? options.names : ['']) : undefined,
      ),
    )
    .groupBy(leads.author)
    .orderBy(sql`${unansweredAt} asc nulls first`, desc(sql`max(${leads.foundAt})`), asc(leads.author))
    .limit(options.limit);
  return rows.map((r) => r.author);
}

export type NewRedditAuthor = typeof redditAuthors.$inferInsert;

export async function saveAuthor(db: DbOrTx, author: NewRedditAuthor): Promise<void> {
  const { nameLower: _key, ...rest } = author;
  await db
    .insert(redditAuthors)
    .values(author)
    .onConflictDoUpdate({ target: redditAuthors.nameLower, set: rest });
  // Read at last: the note that put it after the others goes (a cached author is not listed anyway).
  await db.delete(redditAuthorsUnanswered).where(eq(redditAuthorsUnanswered.nameLower, author.nameLower));
}

/** An author Reddit did not answer: read again later, after the authors it answered. */
export async function noteAuthorUnanswered(db: DbOrTx, name: string, at: Date): Promise<void> {
  await db
    .insert(redditAuthorsUnanswered)
    .values({ nameLower: name.toLowerCase(), unansweredAt: at })
    .onConflictDoUpdate({ target: redditAuthorsUnanswered.nameLower, set: { unansweredAt: at } });
}

export interface AuthorCursor {
  at: Date;
  nameLower: string;
}

export interface PruneBatch {
  deleted: number;
  /** Where the next batch starts, or null after the last. */
  next: AuthorCursor | null;
}

/** Whether some lead of any project (from `since` on, if given) names the author of this row. */
const leadOfAuthor = (db: DbOrTx, nameLower: AnyPgColumn, since?: Date) =>
  db
    .select({ one: sql`1` })
    .from(leads)
    .where(and(eq(sql`lower(${leads.author})`, nameLower), since ? gt(leads.foundAt, since) : undefined));

const afterCursor = (at: AnyPgColumn, nameLower: AnyPgColumn, cursor: AuthorCursor | null) =>
  cursor
    ? sql`(${at}, ${nameLower}) > (${cursor.at.toISOString()}::timestamptz, ${cursor.nameLower})`
    : undefined;

function nextCursor(rows: { at: Date; nameLower: string }[], limit: number): AuthorCursor | null {
  const last = rows[rows.length - 1];
  return last && rows.length === limit ? { at: last.at, nameLower: last.nameLower } : null;
}

/**
 * Looks at up to `limit` cached authors read before `before` (after `cursor`, oldest first) and deletes
 * those no lead of any project names any more: nothing shows their profile, and an author found again
 * is read afresh.
 */
export async function pruneAuthorsBatch(
  db: DbOrTx,
  before: Date,
  cursor: AuthorCursor | null,
  limit: number,
): Promise<PruneBatch> {
  const candidates = await db
    .select({ at: redditAuthors.fetchedAt, nameLower: redditAuthors.nameLower })
    .from(redditAuthors)
    .where(
      and(
        lt(redditAuthors.fetchedAt, before),
        afterCursor(redditAuthors.fetchedAt, redditAuthors.nameLower, cursor),
      ),
    )
    .orderBy(asc(redditAuthors.fetchedAt), asc(redditAuthors.nameLower))
    .limit(limit);
  if (candidates.length === 0) return { deleted: 0, next: null };
  const deleted = await db
    .delete(redditAuthors)
    .where(
      and(
        inArray(
          redditAuthors.nameLower,
          candidates.map((c) => c.nameLower),
        ),
        lt(redditAuthors.fetchedAt, before),
        notExists(leadOfAuthor(db, redditAuthors.nameLower)),
      ),
    )
    .returning({ nameLower: redditAuthors.nameLower });
  return { deleted: deleted.length, next: nextCursor(candidates, limit) };
}

/**
 * Looks at up to `limit` notes of authors left unanswered before `since` (after `cursor`, oldest first) and
 * deletes those with no lead found since then: no look-up lists them any more, so the note orders nothing.
 */
export async function pruneUnansweredBatch(
  db: DbOrTx,
  since: Date,
  cursor: AuthorCursor | null,
  limit: number,
): Promise<PruneBatch> {
  const t = redditAuthorsUnanswered;
  const candidates = await db
    .select({ at: t.unansweredAt, nameLower: t.nameLower })
    .from(t)
    .where(and(lt(t.unansweredAt, since), afterCursor(t.unansweredAt, t.nameLower, cursor)))
    .orderBy(asc(t.unansweredAt), asc(t.nameLower))
    .limit(limit);
  if (candidates.length === 0) return { deleted: 0, next: null };
  const deleted = await db
    .delete(t)
    .where(
      and(
        inArray(
          t.nameLower,
          candidates.map((c) => c.nameLower),
        ),
        lt(t.unansweredAt, since),
        notExists(leadOfAuthor(db, t.nameLower, since)),
      ),
    )
    .returning({ nameLower: t.nameLower });
  return { deleted: deleted.length, next: nextCursor(candidates, limit) };
}

export type SearchTrigger = 'enhanced' | 'posts' | 'backfill' | 'agent';

/** The statistics row of a search; the same run (found by its start) keeps one row when it is resumed. */
export async function openSearch(
  db: DbOrTx,
  projectId: string,
  trigger: SearchTrigger,
  startedAt: Date,
): Promise<string> {
  const [existing] = await db
    .select({ id: discoverySearches.id })
    .from(discoverySearches)
    .where(
      and(
        eq(discoverySearches.projectId, projectId),
        eq(discoverySearches.trigger, trigger),
        eq(discoverySearches.startedAt, startedAt),
      ),
    )
    .limit(1);
  if (existing) return existing.id;
  const [row] = await db
    .insert(discoverySearches)
    .values({ projectId, trigger, status: 'running', startedAt })
    .returning({ id: discoverySearches.id });
  return row!.id;
}

export async function closeSearch(
  db: DbOrTx,
  id: string,
  values: {
    status: 'completed' | 'failed';
    postsFound: number;
    commentsFound: number;
    profilesFound: number;
    requests: number;
  },
  now: Date,
): Promise<void> {
  await db
    .update(discoverySearches)
    .set({ ...values, finishedAt: now })
    .where(eq(discoverySearches.id, id));
}

/** Fails the project's search of `trigger` started at `startedAt`, ended `at`, if it is still open. */
export async function failOpenSearch(
  db: DbOrTx,
  projectId: string,
  trigger: SearchTrigger,
  startedAt: Date,
  at: Date,
): Promise<void> {
  await db
    .update(discoverySearches)
    .set({ status: 'failed', finishedAt: at })
    .where(
      and(
        eq(discoverySearches.projectId, projectId),
        eq(discoverySearches.trigger, trigger),
        eq(discoverySearches.startedAt, startedAt),
        eq(discoverySearches.status, 'running'),
      ),
    );
}

/** How many keywords and subreddits the project approved: what a search needs first. */
export async function countApprovals(
  db: DbOrTx,
  projectId: string,
): Promise<{ keywords: number; subreddits: number }> {
  const [kw] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(keywords)
    .where(and(eq(keywords.projectId, projectId), eq(keywords.approved, true)));
  const [subs] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(subreddits)
    .where(and(eq(subreddits.projectId, projectId), eq(subreddits.approved, true)));
  return { keywords: kw?.n ?? 0, subreddits: subs?.n ?? 0 };
}
