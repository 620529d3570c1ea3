import {
  and,
  asc,
  count,
  desc,
  eq,
  gte,
  inArray,
  isNull,
  lt,
  or,
  sql,
  type SQL,
  type SQLWrapper,
} from 'drizzle-orm';
import type { TLeadSort, TPageQuery } from '@threadreach/contract';
import type { DbOrTx } from '../../db/client';
import { redditAuthors, redditItems } from '../discovery/discovery.table';
import { CONTACTED_DM_STATES, dmMessages } from '../dms/dms.table';
import { projects } from '../projects/projects.table';
import { suppressions } from '../suppressions/suppressions.table';
import { leads, profiles, type LeadRow, type ProfileRow } from './leads.table';

export type LeadKind = 'post' | 'comment';

/** A lead with the item it points at and what the shared author cache knows of its author. */
export interface LeadView {
  lead: LeadRow;
  title: string;
  body: string;
  permalink: string;
  score: number;
  accountCreatedAt: Date | null;
  commentKarma: number | null;
  /** Deleted or suspended when Reddit was last asked; null until the author was read. */
  authorMissing: boolean | null;
}

/** A lead of the candidate lists: also whether its author already has a DM in the project. */
export interface ListedLeadView extends LeadView {
  hasDm: boolean;
}

export interface ProfileView {
  profile: ProfileRow;
  bio: string;
  accountCreatedAt: Date | null;
  commentKarma: number | null;
  authorMissing: boolean | null;
  hasDm: boolean;
  leadCount: number;
}

/** Filters of the results tabs: one project, live (not dismissed) leads scoring at least `minScore`. */
export interface LeadFilter {
  projectId: string;
  minScore: number;
}

const leadView = {
  lead: leads,
  title: redditItems.title,
  body: redditItems.body,
  permalink: redditItems.permalink,
  score: redditItems.score,
  accountCreatedAt: redditAuthors.accountCreatedAt,
  commentKarma: redditAuthors.commentKarma,
  authorMissing: redditAuthors.missing,
};

const authorOfLead = eq(redditAuthors.nameLower, sql`lower(${leads.author})`);

function liveLeads(filter: LeadFilter, kind: LeadKind): SQL {
  return and(
    eq(leads.projectId, filter.projectId),
    eq(leads.kind, kind),
    isNull(leads.dismissedAt),
    gte(leads.intentScore, filter.minScore),
  )!;
}

/**
 * People the project's workspace already contacted leave the candidate lists for the History tab (spec
 * section 4); the workspace-wide unique index of contacted DMs answers it. So do people on its
 * do-not-contact list: no DM may ever go to them (its primary key answers it).
 */
function notContacted(projectId: string, author: SQLWrapper): SQL {
  const owner = sql`(select ${projects.userId} from ${projects} where ${projects.id} = ${projectId})`;
  return sql`not exists (select 1 from ${dmMessages}
    where ${dmMessages.ownerUserId} = ${owner}
      and ${dmMessages.recipientKey} = lower(${author})
      and ${inArray(dmMessages.state, [...CONTACTED_DM_STATES])})
    and not exists (select 1 from ${suppressions}
      where ${suppressions.ownerUserId} = ${owner} and ${suppressions.usernameKey} = lower(${author}))`;
}

/**
 * Whether the project already has a DM to `author` (written, queued, failed or expired: sent ones leave
 * the lists): a second one is refused, so the lists say so instead of offering Generate DM. The owner's
 * index of recipients answers it.
 */
function hasDmInProject(projectId: string, author: SQLWrapper): SQL<boolean> {
  return sql<boolean>`exists (select 1 from ${dmMessages}
    where ${dmMessages.ownerUserId} = (select ${projects.userId} from ${projects} where ${projects.id} = ${projectId})
      and ${dmMessages.recipientKey} = lower(${author})
      and ${dmMessages.projectId} = ${projectId})`;
}

/** One page of a results list, in the order it is shown. */
export interface LeadPage extends TPageQuery {
  sort: TLeadSort;
}

/** A results list's order; the id last, so equal scores and times still page in one order. */
function leadOrder(sort: TLeadSort): SQL[] {
  const newest = [desc(leads.itemCreatedAt), desc(leads.id)];
  return sort === 'intent' ? [desc(leads.intentScore), ...newest] : newest;
}

/**
 * One page of a project's live posts or comments by people not contacted yet, newest first (by when they
 * were written on Reddit) or highest intent first.
 */
export async function listLeads(
  db: DbOrTx,
  filter: LeadFilter,
  kind: LeadKind,
  page: LeadPage,
): Promise<{ rows: ListedLeadView[]; total: number }> {
  const where = and(liveLeads(filter, kind), notContacted(filter.projectId, leads.author));
  const [rows, totals] = await Promise.all([
    db
      .select({ ...leadView, hasDm: hasDmInProject(filter.projectId, leads.author) })
      .from(leads)
      .innerJoin(redditItems, eq(redditItems.name, leads.itemName))
      .leftJoin(redditAuthors, authorOfLead)
      .where(where)
      .orderBy(...leadOrder(page.sort))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(leads).where(where),
  ]);
  return { rows, total: totals[0]?.n ?? 0 };
}

/** The Users tab's profiles: live, scoring at least `minScore`, and not contacted yet. */
function liveProfiles(filter: LeadFilter): SQL {
  return and(
    eq(profiles.projectId, filter.projectId),
    isNull(profiles.dismissedAt),
    gte(profiles.intentScore, filter.minScore),
    notContacted(filter.projectId, profiles.redditUsername),
  )!;
}

function profileOrder(sort: TLeadSort): SQL[] {
  const newest = [desc(profiles.lastFoundAt), desc(profiles.id)];
  return sort === 'intent' ? [desc(profiles.intentScore), ...newest] : newest;
}

/**
 * One page of a project's live profiles not contacted yet, the most recently found first or the highest
 * intent first (a profile keeps its best lead's score), with their live lead counts.
 */
export async function listProfiles(
  db: DbOrTx,
  filter: LeadFilter,
  page: LeadPage,
): Promise<{ rows: ProfileView[]; total: number }> {
  const where = liveProfiles(filter);
  const [rows, totals] = await Promise.all([
    db
      .select({
        profile: profiles,
        bio: redditAuthors.bio,
        accountCreatedAt: redditAuthors.accountCreatedAt,
        commentKarma: redditAuthors.commentKarma,
        authorMissing: redditAuthors.missing,
        hasDm: hasDmInProject(filter.projectId, profiles.redditUsername),
      })
      .from(profiles)
      .leftJoin(redditAuthors, eq(redditAuthors.nameLower, sql`lower(${profiles.redditUsername})`))
      .where(where)
      .orderBy(...profileOrder(page.sort))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(profiles).where(where),
  ]);
  const counts = await liveLeadCounts(
    db,
    filter.projectId,
    rows.map((r) => r.profile.redditUsername),
  );
  return {
    rows: rows.map((r) => ({
      profile: r.profile,
      bio: r.bio ?? '',
      accountCreatedAt: r.accountCreatedAt,
      commentKarma: r.commentKarma,
      authorMissing: r.authorMissing,
      hasDm: r.hasDm,
      leadCount: counts.get(r.profile.redditUsername) ?? 0,
    })),
    total: totals[0]?.n ?? 0,
  };
}

async function liveLeadCounts(
  db: DbOrTx,
  projectId: string,
  authors: string[],
): Promise<Map<string, number>> {
  if (authors.length === 0) return new Map();
  const rows = await db
    .select({ author: leads.author, n: count() })
    .from(leads)
    .where(and(eq(leads.projectId, projectId), inArray(leads.author, authors), isNull(leads.dismissedAt)))
    .groupBy(leads.author);
  return new Map(rows.map((r) => [r.author, r.n]));
}

/** Marks a live lead of the project dismissed; false when there is none of that kind with that id. */
export async function dismissLead(
  db: DbOrTx,
  projectId: string,
  kind: LeadKind,
  id: string,
  at: Date,
): Promise<boolean> {
  const rows = await db
    .update(leads)
    .set({ dismissedAt: at })
    .where(
      and(eq(leads.id, id), eq(leads.projectId, projectId), eq(leads.kind, kind), isNull(leads.dismissedAt)),
    )
    .returning({ id: leads.id });
  return rows.length > 0;
}

export async function dismissProfile(db: DbOrTx, projectId: string, id: string, at: Date): Promise<boolean> {
  const rows = await db
    .update(profiles)
    .set({ dismissedAt: at })
    .where(and(eq(profiles.id, id), eq(profiles.projectId, projectId), isNull(profiles.dismissedAt)))
    .returning({ id: profiles.id });
  return rows.length > 0;
}

/** Dismisses every lead a results tab lists under `filter` (all its pages); how many. */
export async function dismissListedLeads(
  db: DbOrTx,
  filter: LeadFilter,
  kind: LeadKind,
  at: Date,
): Promise<number> {
  const rows = await db
    .update(leads)
    .set({ dismissedAt: at })
    .where(and(liveLeads(filter, kind), notContacted(filter.projectId, leads.author)))
    .returning({ id: leads.id });
  return rows.length;
}

/** Dismisses every profile the Users tab lists under `filter` (all its pages); how many. */
export async function dismissListedProfiles(db: DbOrTx, filter: LeadFilter, at: Date): Promise<number> {
  const rows = await db
    .update(profiles)
    .set({ dismissedAt: at })
    .where(liveProfiles(filter))
    .returning({ id: profiles.id });
  return rows.length;
}

/** The owning project of each live lead of `kind` among `ids`; others are left out. */
export async function leadOwners(db: DbOrTx, kind: LeadKind, ids: string[]): Promise<Map<string, string>> {
  const rows = await db
    .select({ id: leads.id, projectId: leads.projectId })
    .from(leads)
    .where(and(inArray(leads.id, ids), eq(leads.kind, kind), isNull(leads.dismissedAt)));
  return new Map(rows.map((r) => [r.id, r.projectId]));
}

export async function profileOwners(db: DbOrTx, ids: string[]): Promise<Map<string, string>> {
  const rows = await db
    .select({ id: profiles.id, projectId: profiles.projectId })
    .from(profiles)
    .where(and(inArray(profiles.id, ids), isNull(profiles.dismissedAt)));
  return new Map(rows.map((r) => [r.id, r.projectId]));
}

/** Where an export page ends; the next page starts after it. */
export interface ExportCursor {
  itemCreatedAt: Date;
  id: string;
}

/**
 * One page of a project's live leads of `kind` for the export, newest first, after `cursor`: keyset
 * pages stay cheap however deep the export goes.
 */
export async function exportLeadsPage(
  db: DbOrTx,
  projectId: string,
  kind: LeadKind,
  cursor: ExportCursor | null,
  limit: number,
): Promise<LeadView[]> {
  const after = cursor
    ? or(
        lt(leads.itemCreatedAt, cursor.itemCreatedAt),
        and(eq(leads.itemCreatedAt, cursor.itemCreatedAt), lt(leads.id, cursor.id)),
      )
    : undefined;
  return db
    .select(leadView)
    .from(leads)
    .innerJoin(redditItems, eq(redditItems.name, leads.itemName))
    .leftJoin(redditAuthors, authorOfLead)
    .where(and(liveLeads({ projectId, minScore: 0 }, kind), after))
    .orderBy(desc(leads.itemCreatedAt), desc(leads.id))
    .limit(limit);
}

/** Live leads of the project found at or after `since` that its webhook has not received, oldest first. */
export async function undeliveredLeads(
  db: DbOrTx,
  projectId: string,
  since: Date,
  limit: number,
): Promise<LeadView[]> {
  return db
    .select(leadView)
    .from(leads)
    .innerJoin(redditItems, eq(redditItems.name, leads.itemName))
    .leftJoin(redditAuthors, authorOfLead)
    .where(undelivered(projectId, since))
    .orderBy(asc(leads.foundAt), asc(leads.id))
    .limit(limit);
}

/** The condition the partial index `leads_undelivered_idx` serves. */
export function undelivered(projectId: string | SQLWrapper, since: Date | SQLWrapper): SQL {
  return and(
    eq(leads.projectId, projectId),
    isNull(leads.deliveredAt),
    gte(leads.foundAt, since),
    isNull(leads.dismissedAt),
  )!;
}

export async function markDelivered(db: DbOrTx, projectId: string, ids: string[], at: Date): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(leads)
    .set({ deliveredAt: at })
    .where(and(eq(leads.projectId, projectId), inArray(leads.id, ids)));
}
