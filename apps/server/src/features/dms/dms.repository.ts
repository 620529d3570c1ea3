import {
  and,
  count,
  desc,
  eq,
  gt,
  gte,
  inArray,
  isNull,
  like,
  lt,
  notInArray,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { WITHHELD_OUTCOME_CODES, type TPageQuery } from '@threadreach/contract';
import type { DbOrTx as Db } from '../../db/client';
import { redditAccounts } from '../accounts/accounts.table';
import { redditAuthors, redditItems } from '../discovery/discovery.table';
import { leads, profiles } from '../leads/leads.table';
import { productInfos, type ProductInfoRow } from '../product-info/product-info.table';
import { projects } from '../projects/projects.table';
import { containsPattern } from '../suppressions';
import { suppressions, type SuppressionReason } from '../suppressions/suppressions.table';
import {
  CONTACTED_DM_STATES,
  dmMessages,
  messageExamples,
  type DmMessageRow,
  type DmState,
  type MessageExampleRow,
} from './dms.table';

/**
 * DMs that failed to send: held back because of their person (WITHHELD_OUTCOME_CODES) is not a failed
 * send, so the statistics leave those out of their failed counts.
 */
export const failedToSend: SQL = and(
  eq(dmMessages.state, 'failed'),
  or(isNull(dmMessages.outcomeCode), notInArray(dmMessages.outcomeCode, [...WITHHELD_OUTCOME_CODES])),
)!;

/** DMs failed because of their person (WITHHELD_OUTCOME_CODES): never tried, so no failed send. */
export const heldBack: SQL = and(
  eq(dmMessages.state, 'failed'),
  inArray(dmMessages.outcomeCode, [...WITHHELD_OUTCOME_CODES]),
)!;

/** How many rows of a select meet `condition`: one count among others over the same rows. */
export const countWhere = (condition: SQL) =>
  sql<number>`count(*) filter (where ${condition})`.mapWith(Number);

/**
 * What the campaign's counts and the sending status both show, counted the same way so the two agree: DMs
 * sent, failed sends (`failedToSend`), DMs held back because of their person, and expired DMs. Columns
 * for a select over dm_messages.
 */
export function dmOutcomeCounts() {
  return {
    sent: countWhere(eq(dmMessages.state, 'sent')),
    failed: countWhere(failedToSend),
    withheld: countWhere(heldBack),
    expired: countWhere(eq(dmMessages.state, 'expired')),
  };
}

export type NewDm = typeof dmMessages.$inferInsert;
export type NewMessageExample = typeof messageExamples.$inferInsert;

/**
 * A DM with why its recipient is on the workspace's do-not-contact list (null when they are not), whether
 * they already answered a DM of the workspace, and whether the DM is too old to send (`tooOldToSend`).
 */
export interface DmWithSuppression {
  dm: DmMessageRow;
  suppression: SuppressionReason | null;
  answered: boolean;
  leadExpired: boolean;
}

const otherDm = alias(dmMessages, 'other_dm');

/** The workspace has a DM to the DM's recipient that matches `where` (by the owner-recipient index). */
const workspaceDmToSamePerson = (where: SQL) =>
  // An alias in sql`` renders as its name alone: the table goes before it.
  sql`exists (select 1 from ${dmMessages} ${otherDm} where ${otherDm.ownerUserId} = ${dmMessages.ownerUserId} and ${otherDm.recipientKey} = ${dmMessages.recipientKey} and ${where})`;

/** The recipient already answered a DM of the workspace: a Send is refused ('replied'). */
const answeredBefore = workspaceDmToSamePerson(sql`${otherDm.repliedAt} is not null`);

/**
 * A Send refuses the DM for its lead's age (`tooOldToSend`): an unsent or failed DM whose lead is older
 * than `cutoff`, and any expired one.
 */
const leadExpired = (cutoff: Date) => sql<boolean>`(${dmMessages.state} = 'expired'
  or (${inArray(dmMessages.state, [...EXPIRABLE, 'failed'])} and ${lt(leadTime(), cutoff)}))`;

/**
 * An approved DM Send All would queue: its lead younger than `cutoff` (an older one gets no slot), its
 * person not on the list, never answered, not contacted nor queued to by another DM of the workspace. Of
 * several to one person Send All queues one, so people are counted, not DMs. A DM Send All leaves because
 * no account has room for it before it expires is still counted: that depends on the accounts' days and
 * pacing, which only planning works out. The lead and profile come from `countSendAllWouldQueue`'s joins.
 */
const sendAllWouldQueue = (cutoff: Date) => sql`${dmMessages.state} = 'approved'
  and not exists (select 1 from ${suppressions} where ${suppressions.ownerUserId} = ${dmMessages.ownerUserId} and ${suppressions.usernameKey} = ${dmMessages.recipientKey})
  and not ${workspaceDmToSamePerson(
    sql`(${otherDm.repliedAt} is not null or ${inArray(otherDm.state, ['queued', ...CONTACTED_DM_STATES])})`,
  )}
  and ${gt(joinedLeadTime, cutoff)}`;

/**
 * People Send All DMs would queue in the project (`sendAllWouldQueue`), read from its approved DMs alone.
 * The lead and profile are joined rather than looked up per DM (`leadTime`): with most of a project
 * approved, one pass over each table instead of a look-up per DM.
 */
function countSendAllWouldQueue(db: Db, projectId: string, cutoff: Date) {
  return db
    .select({ n: sql<number>`count(distinct ${dmMessages.recipientKey})::int` })
    .from(dmMessages)
    .leftJoin(leads, eq(leads.id, dmMessages.leadId))
    .leftJoin(profiles, eq(profiles.id, dmMessages.profileId))
    .where(and(eq(dmMessages.projectId, projectId), sendAllWouldQueue(cutoff)));
}

/** Step 4's filters of the DM list: the recipient's name containing `search` (any case), the DM's state. */
export interface DmListFilter {
  search?: string | undefined;
  state?: DmState | undefined;
}

/**
 * One page of a project's DMs, newest first, each with its recipient's entry on the do-not-contact list of
 * the DM's own workspace (looked up by the list's key, in the same query), whether they answered before,
 * and whether its lead is older than `cutoff` (DM_EXPIRY_DAYS ago). `filter` picks the page's DMs and their
 * total; `ready` counts the whole project, as Send All DMs queues it.
 */
export async function listDmPage(
  db: Db,
  projectId: string,
  page: TPageQuery & DmListFilter,
  cutoff: Date,
): Promise<{ rows: DmWithSuppression[]; total: number; ready: number }> {
  const where = eq(dmMessages.projectId, projectId);
  const picked = and(
    page.search ? like(dmMessages.recipientKey, containsPattern(page.search)) : undefined,
    page.state ? eq(dmMessages.state, page.state) : undefined,
  );
  const [rows, totals, ready] = await Promise.all([
    selectWithStanding(db, cutoff)
      .where(and(where, picked))
      .orderBy(desc(dmMessages.createdAt), desc(dmMessages.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(dmMessages).where(and(where, picked)),
    countSendAllWouldQueue(db, projectId, cutoff),
  ]);
  return { rows, total: totals[0]?.n ?? 0, ready: ready[0]?.n ?? 0 };
}

/** These DMs (by id) with what stops a Send of each, as the list reads it; unknown ids are left out. */
export async function dmsWithStanding(db: Db, ids: string[], cutoff: Date): Promise<DmWithSuppression[]> {
  if (ids.length === 0) return [];
  return selectWithStanding(db, cutoff).where(inArray(dmMessages.id, ids));
}

/**
 * DMs with their recipient's entry on the do-not-contact list of the DM's own workspace (a left join on the
 * list's key), whether they answered before, and whether the lead is older than `cutoff`, in one query.
 */
function selectWithStanding(db: Db, cutoff: Date) {
  return db
    .select({
      dm: dmMessages,
      suppression: suppressions.reason,
      answered: sql<boolean>`${answeredBefore}`,
      leadExpired: leadExpired(cutoff),
    })
    .from(dmMessages)
    .leftJoin(
      suppressions,
      and(
        eq(suppressions.ownerUserId, dmMessages.ownerUserId),
        eq(suppressions.usernameKey, dmMessages.recipientKey),
      ),
    );
}

/** The owning project of each DM among `ids`; unknown ids are left out. */
export async function dmOwners(db: Db, ids: string[]): Promise<Map<string, string>> {
  const rows = await db
    .select({ id: dmMessages.id, projectId: dmMessages.projectId })
    .from(dmMessages)
    .where(inArray(dmMessages.id, ids));
  return new Map(rows.map((r) => [r.id, r.projectId]));
}

export async function findDm(db: Db, projectId: string, id: string): Promise<DmMessageRow | null> {
  const rows = await db
    .select()
    .from(dmMessages)
    .where(and(eq(dmMessages.id, id), eq(dmMessages.projectId, projectId)))
    .limit(1);
  return rows[0] ?? null;
}

/** The project's DMs among `ids`, locked until the transaction ends. */
export async function lockDms(tx: Db, projectId: string, ids: string[]): Promise<DmMessageRow[]> {
  return tx
    .select()
    .from(dmMessages)
    .where(and(eq(dmMessages.projectId, projectId), inArray(dmMessages.id, ids)))
    .for('update');
}

export async function updateDm(
  db: Db,
  projectId: string,
  id: string,
  values: Partial<Omit<NewDm, 'id' | 'projectId' | 'ownerUserId'>>,
): Promise<DmMessageRow | null> {
  const rows = await db
    .update(dmMessages)
    .set(values)
    .where(and(eq(dmMessages.id, id), eq(dmMessages.projectId, projectId)))
    .returning();
  return rows[0] ?? null;
}

/** Deletes the DM; false when the project has no such DM. */
export async function deleteDm(db: Db, projectId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(dmMessages)
    .where(and(eq(dmMessages.id, id), eq(dmMessages.projectId, projectId)))
    .returning({ id: dmMessages.id });
  return rows.length > 0;
}

/** Inserts a DM unless the project already has one for the same source; null then. */
export async function insertDm(db: Db, values: NewDm): Promise<DmMessageRow | null> {
  const rows = await db.insert(dmMessages).values(values).onConflictDoNothing().returning();
  return rows[0] ?? null;
}

/** Serialises DM writes of one project, so "one DM per person per project" holds under concurrent calls. */
export async function lockProjectDms(tx: Db, projectId: string): Promise<void> {
  await tx.execute(sql`select 1 from ${projects} where ${projects.id} = ${projectId} for update`);
}

export async function findProductInfoRow(db: Db, projectId: string): Promise<ProductInfoRow | null> {
  const rows = await db.select().from(productInfos).where(eq(productInfos.projectId, projectId)).limit(1);
  return rows[0] ?? null;
}

/** The workspace a project belongs to: its owner's user id. */
export async function findProjectOwner(db: Db, projectId: string): Promise<string | null> {
  const rows = await db
    .select({ userId: projects.userId })
    .from(projects)
    .where(eq(projects.id, projectId))
    .limit(1);
  return rows[0]?.userId ?? null;
}

/** A post or comment lead with the item it points at and whether its author's account is gone. */
export interface LeadSourceRow {
  leadId: string;
  kind: string;
  itemName: string;
  author: string;
  subreddit: string;
  title: string;
  body: string;
  matchedKeywords: string[];
  authorMissing: boolean | null;
  itemCreatedAt: Date;
}

/** The project's live leads of `kind` among `ids`. */
export async function findLeadSources(
  db: Db,
  projectId: string,
  kind: 'post' | 'comment',
  ids: string[],
): Promise<LeadSourceRow[]> {
  if (ids.length === 0) return [];
  return db
    .select({
      leadId: leads.id,
      kind: leads.kind,
      itemName: leads.itemName,
      author: leads.author,
      subreddit: leads.subreddit,
      title: redditItems.title,
      body: redditItems.body,
      matchedKeywords: leads.matchedKeywords,
      authorMissing: redditAuthors.missing,
      itemCreatedAt: leads.itemCreatedAt,
    })
    .from(leads)
    .innerJoin(redditItems, eq(redditItems.name, leads.itemName))
    .leftJoin(redditAuthors, eq(redditAuthors.nameLower, sql`lower(${leads.author})`))
    .where(
      and(
        eq(leads.projectId, projectId),
        eq(leads.kind, kind),
        inArray(leads.id, ids),
        isNull(leads.dismissedAt),
      ),
    );
}

/** Any lead of the project (dismissed ones too), for regenerating a DM written about it. */
export async function findAnyLeadSource(
  db: Db,
  projectId: string,
  leadId: string,
): Promise<LeadSourceRow | null> {
  const rows = await db
    .select({
      leadId: leads.id,
      kind: leads.kind,
      itemName: leads.itemName,
      author: leads.author,
      subreddit: leads.subreddit,
      title: redditItems.title,
      body: redditItems.body,
      matchedKeywords: leads.matchedKeywords,
      authorMissing: redditAuthors.missing,
      itemCreatedAt: leads.itemCreatedAt,
    })
    .from(leads)
    .innerJoin(redditItems, eq(redditItems.name, leads.itemName))
    .leftJoin(redditAuthors, eq(redditAuthors.nameLower, sql`lower(${leads.author})`))
    .where(and(eq(leads.projectId, projectId), eq(leads.id, leadId)))
    .limit(1);
  return rows[0] ?? null;
}

export interface ProfileSourceRow {
  profileId: string;
  username: string;
  bio: string | null;
  matchedKeywords: string[];
  authorMissing: boolean | null;
}

/** A profile of the project with its bio from the shared author cache; dismissed ones only when asked. */
export async function findProfileSource(
  db: Db,
  projectId: string,
  profileId: string,
  options: { includeDismissed: boolean },
): Promise<ProfileSourceRow | null> {
  const rows = await db
    .select({
      profileId: profiles.id,
      username: profiles.redditUsername,
      bio: redditAuthors.bio,
      matchedKeywords: profiles.matchedKeywords,
      authorMissing: redditAuthors.missing,
    })
    .from(profiles)
    .leftJoin(redditAuthors, eq(redditAuthors.nameLower, sql`lower(${profiles.redditUsername})`))
    .where(
      and(
        eq(profiles.projectId, projectId),
        eq(profiles.id, profileId),
        options.includeDismissed ? undefined : isNull(profiles.dismissedAt),
      ),
    )
    .limit(1);
  return rows[0] ?? null;
}

/** Recipients (lower-case names) that already have a DM in the project, in any state. */
export async function recipientsWithDm(db: Db, projectId: string, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db
    .selectDistinct({ key: dmMessages.recipientKey })
    .from(dmMessages)
    .where(and(eq(dmMessages.projectId, projectId), inArray(dmMessages.recipientKey, keys)));
  return new Set(rows.map((r) => r.key));
}

/** Recipients the workspace has already sent a DM to (or is sending one to), from any of its projects. */
export async function contactedRecipients(db: Db, ownerUserId: string, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db
    .selectDistinct({ key: dmMessages.recipientKey })
    .from(dmMessages)
    .where(
      and(
        eq(dmMessages.ownerUserId, ownerUserId),
        inArray(dmMessages.recipientKey, keys),
        inArray(dmMessages.state, [...CONTACTED_DM_STATES]),
      ),
    );
  return new Set(rows.map((r) => r.key));
}

/** Recipients on the workspace's do-not-contact list. */
export async function suppressedRecipients(
  db: Db,
  ownerUserId: string,
  keys: string[],
): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db
    .select({ key: suppressions.usernameKey })
    .from(suppressions)
    .where(and(eq(suppressions.ownerUserId, ownerUserId), inArray(suppressions.usernameKey, keys)));
  return new Set(rows.map((r) => r.key));
}

/** Recipients that are Reddit accounts the workspace connected itself. */
export async function ownAccountRecipients(
  db: Db,
  ownerUserId: string,
  keys: string[],
): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db
    .select({ key: sql<string>`lower(${redditAccounts.redditUsername})` })
    .from(redditAccounts)
    .where(
      and(
        eq(redditAccounts.ownerUserId, ownerUserId),
        inArray(sql`lower(${redditAccounts.redditUsername})`, keys),
      ),
    );
  return new Set(rows.map((r) => r.key));
}

/** The lead's author already has a DM in the project (in any state). */
const authorHasDm = (projectId: string) =>
  sql`exists (select 1 from ${dmMessages} where ${dmMessages.projectId} = ${projectId} and ${dmMessages.recipientKey} = lower(${leads.author}))`;

/**
 * "Generate All DMs": the project's live posts and comments scoring at least `minScore` from `cutoff` on
 * (older ones are too old to message) whose author has no DM in the project yet, one lead per author (their
 * most promising, then newest), most promising first.
 */
export async function leadsWithoutDm(
  db: Db,
  projectId: string,
  minScore: number,
  cutoff: Date,
  limit: number,
): Promise<{ id: string; kind: string }[]> {
  const live = and(
    eq(leads.projectId, projectId),
    inArray(leads.kind, ['post', 'comment']),
    isNull(leads.dismissedAt),
    gte(leads.intentScore, minScore),
    gte(leads.itemCreatedAt, cutoff),
  );
  const best = db
    .selectDistinctOn([sql`lower(${leads.author})`], {
      id: leads.id,
      kind: leads.kind,
      intentScore: leads.intentScore,
      itemCreatedAt: leads.itemCreatedAt,
    })
    .from(leads)
    .where(and(live, sql`not ${authorHasDm(projectId)}`))
    .orderBy(sql`lower(${leads.author})`, desc(leads.intentScore), desc(leads.itemCreatedAt), desc(leads.id))
    .as('best');
  return db
    .select({ id: best.id, kind: best.kind })
    .from(best)
    .orderBy(desc(best.intentScore), desc(best.itemCreatedAt), desc(best.id))
    .limit(limit);
}

/** How many of the project's live posts and comments scoring at least `minScore` also meet `where`. */
async function countLiveLeads(db: Db, projectId: string, minScore: number, where: SQL): Promise<number> {
  const rows = await db
    .select({ n: count() })
    .from(leads)
    .where(
      and(
        eq(leads.projectId, projectId),
        inArray(leads.kind, ['post', 'comment']),
        isNull(leads.dismissedAt),
        gte(leads.intentScore, minScore),
        where,
      ),
    );
  return rows[0]?.n ?? 0;
}

/** Live leads scoring at least `minScore` from before `cutoff`, too old to message, whose author has no DM. */
export function countTooOldLeads(db: Db, projectId: string, minScore: number, cutoff: Date): Promise<number> {
  return countLiveLeads(
    db,
    projectId,
    minScore,
    and(lt(leads.itemCreatedAt, cutoff), sql`not ${authorHasDm(projectId)}`)!,
  );
}

/** Live leads scoring at least `minScore` whose author already has a DM in the project. */
export function countLeadsWithDm(db: Db, projectId: string, minScore: number): Promise<number> {
  return countLiveLeads(db, projectId, minScore, authorHasDm(projectId));
}

export async function findExampleOfDm(db: Db, dmId: string): Promise<MessageExampleRow | null> {
  const rows = await db.select().from(messageExamples).where(eq(messageExamples.dmId, dmId)).limit(1);
  return rows[0] ?? null;
}

export async function insertExample(db: Db, values: NewMessageExample): Promise<void> {
  await db.insert(messageExamples).values(values);
}

export async function updateExample(
  db: Db,
  projectId: string,
  id: string,
  values: Partial<Omit<NewMessageExample, 'id' | 'projectId'>>,
): Promise<void> {
  await db
    .update(messageExamples)
    .set(values)
    .where(and(eq(messageExamples.id, id), eq(messageExamples.projectId, projectId)));
}

export async function deleteExamplesOfDm(db: Db, projectId: string, dmId: string): Promise<void> {
  await db
    .delete(messageExamples)
    .where(and(eq(messageExamples.projectId, projectId), eq(messageExamples.dmId, dmId)));
}

/**
 * States a DM expires from: written, or queued but not yet claimed. A queued DM pushed back past its
 * lead's age (a rescheduled chain) would otherwise answer a post weeks late.
 */
const EXPIRABLE: DmState[] = ['draft', 'approved', 'queued'];

/**
 * When a DM's lead counts from, for expiry: a post or comment by when it was written, a profile by when
 * it last matched, and a DM whose lead is gone by when it was written.
 */
const leadTime = () => sql<Date>`coalesce(
    (select ${leads.itemCreatedAt} from ${leads} where ${leads.id} = ${dmMessages.leadId}),
    (select ${profiles.lastFoundAt} from ${profiles} where ${profiles.id} = ${dmMessages.profileId}),
    ${dmMessages.createdAt}
  )`;

/** `leadTime` in a query that left-joins the DM's lead and profile by id (at most one row each). */
const joinedLeadTime = sql<Date>`coalesce(${leads.itemCreatedAt}, ${profiles.lastFoundAt}, ${dmMessages.createdAt})`;

/** When each DM's lead counts from (see `leadTime`), as epoch milliseconds: its expiry is DM_EXPIRY_DAYS later. */
export async function leadTimesOfDms(db: Db, ids: string[]): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: dmMessages.id, at: leadTime().mapWith((v: string | Date) => new Date(v).getTime()) })
    .from(dmMessages)
    .where(inArray(dmMessages.id, ids));
  return new Map(rows.map((r) => [r.id, r.at]));
}

/**
 * Marks up to `limit` unsent DMs expired whose lead (see `leadTime`) is older than `cutoff`. Returns how
 * many changed.
 */
export async function expireDmsBatch(db: Db, cutoff: Date, now: Date, limit: number): Promise<number> {
  const leadAge = leadTime();
  const due = db
    .select({ id: dmMessages.id })
    .from(dmMessages)
    .where(and(inArray(dmMessages.state, EXPIRABLE), lt(leadAge, cutoff)))
    .limit(limit);
  const rows = await db
    .update(dmMessages)
    .set({ state: 'expired', updatedAt: now })
    .where(and(inArray(dmMessages.id, due), inArray(dmMessages.state, EXPIRABLE)))
    .returning({ id: dmMessages.id });
  return rows.length;
}

/**
 * Marks this DM expired when it is still unsent and its lead (see `leadTime`) is older than `cutoff`, as
 * expire-dms would at its next run: a send must not go out in between. The expired DM, or null.
 */
export async function expireDmIfStale(
  db: Db,
  dmId: string,
  cutoff: Date,
  now: Date,
): Promise<DmMessageRow | null> {
  const [row] = await db
    .update(dmMessages)
    .set({ state: 'expired', updatedAt: now })
    .where(and(eq(dmMessages.id, dmId), inArray(dmMessages.state, EXPIRABLE), lt(leadTime(), cutoff)))
    .returning();
  return row ?? null;
}

/**
 * This DM when it failed and its lead (see `leadTime`) is older than `cutoff`: a Send again is refused, and
 * the DM stays failed (expire-dms leaves failed DMs as they are). Null otherwise.
 */
export async function staleFailedDm(db: Db, dmId: string, cutoff: Date): Promise<DmMessageRow | null> {
  const [row] = await db
    .select()
    .from(dmMessages)
    .where(and(eq(dmMessages.id, dmId), eq(dmMessages.state, 'failed'), lt(leadTime(), cutoff)));
  return row ?? null;
}

/**
 * DMs an agent may send on its own: those the customer edited and saved, and those about a lead (or
 * profile) whose intent reaches `minIntentScore`, as the agent's own drafts do. Generated DMs start
 * approved, so without this a run would send every draft of a Generate All, read or not.
 */
export function agentMaySend(minIntentScore: number): SQL {
  return sql`(${dmMessages.editedAt} is not null
    or exists (select 1 from ${leads} where ${leads.id} = ${dmMessages.leadId} and ${leads.intentScore} >= ${minIntentScore})
    or exists (select 1 from ${profiles} where ${profiles.id} = ${dmMessages.profileId} and ${profiles.intentScore} >= ${minIntentScore}))`;
}

/** The intent of each DM's lead or profile (0 without one), for putting the best first. */
export async function intentOfDms(db: Db, ids: string[]): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({
      id: dmMessages.id,
      score: sql<number>`coalesce(${leads.intentScore}, ${profiles.intentScore}, 0)::int`,
    })
    .from(dmMessages)
    .leftJoin(leads, eq(leads.id, dmMessages.leadId))
    .leftJoin(profiles, eq(profiles.id, dmMessages.profileId))
    .where(inArray(dmMessages.id, ids));
  return new Map(rows.map((r) => [r.id, Number(r.score)]));
}
