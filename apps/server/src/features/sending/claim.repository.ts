import {
  and,
  asc,
  count,
  desc,
  eq,
  inArray,
  isNotNull,
  isNull,
  lt,
  lte,
  max,
  ne,
  or,
  not,
  sql,
  type SQL,
} from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client';
import {
  ACCOUNT_REMOVED,
  claimedBySameRedditAccount,
  dmSenderName,
  keptOfSameRedditAccount,
  ofSameRedditAccount,
  removedBeforeConfirmed,
} from '../accounts';
import { redditAccounts, type RedditAccountRow } from '../accounts/accounts.table';
import { agentSettings } from '../agent/agent.table';
import {
  CONTACTED_DM_STATES,
  dmClaimsKept,
  dmMessages,
  type DmMessageRow,
  type DmState,
} from '../dms/dms.table';
import { countWhere, dmOutcomeCounts } from '../dms';

/**
 * Queued DMs the agent queued: it alone queues with limits of its own (a daily cap per account), kept
 * on the DM; Send All and a Send that waits queue without.
 */
const queuedByTheAgent: SQL = isNotNull(dmMessages.dailyCap);

/**
 * The project's queued DMs of one sender, back among the unsent ones with `changes`: the agent's (Stop
 * Agent) or the customer's (Stop sending), never the other's. Returns how many.
 */
export async function unqueueProjectDms(
  db: DbOrTx,
  projectId: string,
  queuedBy: 'agent' | 'customer',
  changes: PgUpdateSetSource<typeof dmMessages>,
): Promise<number> {
  const bySender = queuedBy === 'agent' ? queuedByTheAgent : not(queuedByTheAgent);
  const rows = await db
    .update(dmMessages)
    .set(changes)
    .where(and(eq(dmMessages.projectId, projectId), eq(dmMessages.state, 'queued'), bySender))
    .returning({ id: dmMessages.id });
  return rows.length;
}

/** The agent's state that a stop changes: each stop changes one of these with switching it off, in one update. */
async function agentState(db: DbOrTx, projectId: string, lock: boolean) {
  const query = db
    .select({
      mode: agentSettings.mode,
      learned: agentSettings.learningStageCompleted,
      pausedReason: agentSettings.pausedReason,
    })
    .from(agentSettings)
    .where(eq(agentSettings.projectId, projectId));
  const [row] = lock ? await query.for('update') : await query;
  return row && { on: row.mode === 'agent' && row.learned && row.pausedReason === null };
}

/**
 * Whether the project's agent is stopped: back in assistant mode, learning again or paused. Execute runs
 * an agent switched off, so that alone is not a stop.
 */
export async function agentStopped(db: DbOrTx, projectId: string): Promise<boolean> {
  const state = await agentState(db, projectId, false);
  return state !== undefined && !state.on;
}

/**
 * Whether the project's agent runs autonomously: in agent mode, learned and not paused (a project
 * without settings is in assistant mode). With `lock`, its settings row stays locked until the
 * transaction ends: the agent's start and every stop change that row, so they wait for the caller.
 */
export async function agentRunning(db: DbOrTx, projectId: string, lock = false): Promise<boolean> {
  return (await agentState(db, projectId, lock))?.on ?? false;
}

/** A DM of one project, locked until the transaction ends. */
export async function lockDm(tx: DbOrTx, projectId: string, dmId: string): Promise<DmMessageRow | null> {
  const [row] = await tx
    .select()
    .from(dmMessages)
    .where(and(eq(dmMessages.id, dmId), eq(dmMessages.projectId, projectId)))
    .for('update');
  return row ?? null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A DM of one project by its own id, or by `post_id`: its reddit_post_id, or the post_id the DM list
 * shows for it (the id of the post it answers).
 */
export async function findProjectDm(
  db: DbOrTx,
  projectId: string,
  by: { dmId?: string | undefined; postId?: string | undefined },
): Promise<DmMessageRow | null> {
  const postId = by.postId ?? '';
  const key = by.dmId
    ? eq(dmMessages.id, by.dmId)
    : UUID.test(postId)
      ? or(
          eq(dmMessages.redditPostId, postId),
          and(eq(dmMessages.sourceType, 'post'), eq(dmMessages.leadId, postId)),
        )
      : eq(dmMessages.redditPostId, postId);
  const [row] = await db
    .select()
    .from(dmMessages)
    .where(and(eq(dmMessages.projectId, projectId), key));
  return row ?? null;
}

/** One account of the project, locked: claims of one account queue here, so its quota is exact. */
export async function lockAccount(
  tx: DbOrTx,
  projectId: string,
  accountId: string,
): Promise<RedditAccountRow | null> {
  const [row] = await tx
    .select()
    .from(redditAccounts)
    .where(and(eq(redditAccounts.id, accountId), eq(redditAccounts.projectId, projectId)))
    .for('update');
  return row ?? null;
}

/** Every account of the project, oldest first; `lock` holds them until the transaction ends. */
export async function projectAccounts(
  db: DbOrTx,
  projectId: string,
  options: { lock?: boolean } = {},
): Promise<RedditAccountRow[]> {
  const query = db
    .select()
    .from(redditAccounts)
    .where(eq(redditAccounts.projectId, projectId))
    .orderBy(asc(redditAccounts.id));
  return options.lock ? query.for('update') : query;
}

/**
 * Serializes the claims of one Reddit account across its connections in the workspace (each claim already
 * holds its own connection's row): their shared quota and pace stay exact.
 */
export async function lockRedditAccount(
  tx: DbOrTx,
  account: Pick<RedditAccountRow, 'ownerUserId' | 'redditUsername'>,
) {
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtextextended(${`reddit-account:${account.ownerUserId}:${account.redditUsername.toLowerCase()}`}, 0))`,
  );
}

/** When the Reddit account last had a DM claimed (whatever became of it), or null. */
export async function lastClaimAt(
  db: DbOrTx,
  account: Pick<RedditAccountRow, 'ownerUserId' | 'redditUsername'>,
): Promise<Date | null> {
  // One after the other: `db` is often a claim's transaction, whose one connection takes a query at a time.
  const [row] = await db
    .select({ at: max(dmMessages.claimedAt) })
    .from(dmMessages)
    .where(claimedBySameRedditAccount(account));
  const [kept] = await db
    .select({ at: max(dmClaimsKept.claimedAt) })
    .from(dmClaimsKept)
    .where(keptOfSameRedditAccount(account));
  const times = [row?.at, kept?.at].filter((at) => at != null).map((at) => new Date(at).getTime());
  return times.length ? new Date(Math.max(...times)) : null;
}

/** When the Reddit account's queued DMs go, except one (the DM being planned again). */
export async function queuedTimes(
  db: DbOrTx,
  account: Pick<RedditAccountRow, 'ownerUserId' | 'redditUsername'>,
  exceptDmId: string | null,
): Promise<Date[]> {
  const rows = await db
    .select({ at: dmMessages.scheduledFor })
    .from(dmMessages)
    .where(
      and(
        ofSameRedditAccount(account),
        eq(dmMessages.state, 'queued'),
        isNotNull(dmMessages.scheduledFor),
        exceptDmId ? ne(dmMessages.id, exceptDmId) : undefined,
      ),
    );
  return rows.map((r) => r.at!);
}

/** Another DM of the workspace to the same person in one of `states`, if any. */
export async function otherDmTo(
  db: DbOrTx,
  dm: Pick<DmMessageRow, 'id' | 'ownerUserId' | 'recipientKey'>,
  states: readonly DmState[],
): Promise<DmMessageRow | null> {
  const [row] = await db
    .select()
    .from(dmMessages)
    .where(
      and(
        eq(dmMessages.ownerUserId, dm.ownerUserId),
        eq(dmMessages.recipientKey, dm.recipientKey),
        ne(dmMessages.id, dm.id),
        inArray(dmMessages.state, [...states]),
      ),
    )
    .limit(1);
  return row ?? null;
}

/** Columns to change on a DM; a value may be SQL (e.g. `oneMoreAttempt`). */
export type DmChanges = PgUpdateSetSource<typeof dmMessages> & { updatedAt: Date };

/**
 * Changes a DM of the project when it is still in one of `from` (and, with `claimedAt`, still the same
 * claim): the guard that keeps a late writer from undoing what another one recorded. Null when it was not.
 */
export async function updateDm(
  db: DbOrTx,
  where: { projectId: string; dmId: string; from: readonly DmState[]; claimedAt?: Date },
  changes: DmChanges,
): Promise<DmMessageRow | null> {
  const [row] = await db
    .update(dmMessages)
    .set(changes)
    .where(
      and(
        eq(dmMessages.id, where.dmId),
        eq(dmMessages.projectId, where.projectId),
        inArray(dmMessages.state, [...where.from]),
        where.claimedAt ? eq(dmMessages.claimedAt, where.claimedAt) : undefined,
      ),
    )
    .returning();
  return row ?? null;
}

/** One more compose that reached Reddit. */
export const oneMoreAttempt = sql`${dmMessages.attempts} + 1`;

export async function updateAccount(
  db: DbOrTx,
  projectId: string,
  accountId: string,
  changes: Partial<
    Pick<RedditAccountRow, 'nextSendAt' | 'disabledReason' | 'authStatus' | 'authCheckedAt'>
  > & {
    updatedAt: Date;
  },
): Promise<void> {
  await db
    .update(redditAccounts)
    .set(changes)
    .where(and(eq(redditAccounts.id, accountId), eq(redditAccounts.projectId, projectId)));
}

/** Approved DMs of the project (those `only` admits), oldest first, locked for queueing. */
export async function lockApprovedDms(db: DbOrTx, projectId: string, only?: SQL): Promise<DmMessageRow[]> {
  return db
    .select()
    .from(dmMessages)
    .where(and(eq(dmMessages.projectId, projectId), eq(dmMessages.state, 'approved'), only))
    .orderBy(asc(dmMessages.createdAt), asc(dmMessages.id))
    .for('update');
}

/** The project's queued DMs with an account, in the order they go, locked for planning again. */
export async function lockQueuedDms(db: DbOrTx, projectId: string): Promise<DmMessageRow[]> {
  return db
    .select()
    .from(dmMessages)
    .where(
      and(
        eq(dmMessages.projectId, projectId),
        eq(dmMessages.state, 'queued'),
        isNotNull(dmMessages.accountId),
        isNotNull(dmMessages.scheduledFor),
      ),
    )
    .orderBy(asc(dmMessages.scheduledFor), asc(dmMessages.id))
    .for('update');
}

/** What the workspace's other DMs to these people tell: contacted, answered, or already queued. */
export async function workspaceDmsTo(
  db: DbOrTx,
  ownerUserId: string,
  keys: string[],
): Promise<Pick<DmMessageRow, 'id' | 'recipientKey' | 'state' | 'repliedAt'>[]> {
  if (keys.length === 0) return [];
  return db
    .select({
      id: dmMessages.id,
      recipientKey: dmMessages.recipientKey,
      state: dmMessages.state,
      repliedAt: dmMessages.repliedAt,
    })
    .from(dmMessages)
    .where(
      and(
        eq(dmMessages.ownerUserId, ownerUserId),
        inArray(dmMessages.recipientKey, keys),
        inArray(dmMessages.state, ['queued', ...CONTACTED_DM_STATES]),
      ),
    );
}

/** DMs of the account whose outcome is unknown, oldest claim first. */
export async function unknownDmsOf(db: DbOrTx, accountId: string): Promise<DmMessageRow[]> {
  return db
    .select()
    .from(dmMessages)
    .where(and(eq(dmMessages.accountId, accountId), eq(dmMessages.state, 'unknown')))
    .orderBy(asc(dmMessages.claimedAt));
}

/**
 * Claims left in `sending` since before `before`: the process that claimed them ended before it
 * recorded Reddit's answer. They become unknown, to be reconciled. One whose account was removed in the
 * meantime has no sent messages left to check: it stays unknown and says so, as the removal says of the
 * unknown ones. Returns their accounts.
 */
export async function markInterruptedSends(
  db: DbOrTx,
  before: Date,
  now: Date,
  reason: string,
): Promise<{ id: string; projectId: string; accountId: string | null }[]> {
  const removed = isNull(dmMessages.accountId);
  return db
    .update(dmMessages)
    .set({
      state: 'unknown',
      outcomeCode: sql`case when ${removed} then ${ACCOUNT_REMOVED} else 'unknown_outcome' end`,
      outcomeReason: sql`case when ${removed}
        then ${removedBeforeConfirmed(sql`coalesce(${dmMessages.senderKey}, 'the account')`)}
        else ${reason}::text end`,
      updatedAt: now,
    })
    .where(and(eq(dmMessages.state, 'sending'), lt(dmMessages.claimedAt, before)))
    .returning({ id: dmMessages.id, projectId: dmMessages.projectId, accountId: dmMessages.accountId });
}

/** Accounts that have DMs of unknown outcome. */
export async function accountsWithUnknownDms(
  db: DbOrTx,
): Promise<{ accountId: string; projectId: string }[]> {
  const rows = await db
    .selectDistinct({ accountId: dmMessages.accountId, projectId: dmMessages.projectId })
    .from(dmMessages)
    .where(and(eq(dmMessages.state, 'unknown'), isNotNull(dmMessages.accountId)));
  return rows.map((r) => ({ accountId: r.accountId!, projectId: r.projectId }));
}

/** Queued DMs due since before `before`: their job is late or was lost. */
export async function overdueQueuedDms(
  db: DbOrTx,
  before: Date,
  limit: number,
): Promise<{ id: string; projectId: string; scheduledFor: Date | null }[]> {
  return db
    .select({ id: dmMessages.id, projectId: dmMessages.projectId, scheduledFor: dmMessages.scheduledFor })
    .from(dmMessages)
    .where(and(eq(dmMessages.state, 'queued'), lte(dmMessages.scheduledFor, before)))
    .orderBy(asc(dmMessages.scheduledFor))
    .limit(limit);
}

// ---- sending status ------------------------------------------------------------------------------

export const SENDING_STATES = ['queued', 'sending', 'sent', 'failed', 'unknown'] as const;
export type SendingState = (typeof SENDING_STATES)[number];

/** Whose DMs the status shows: one project, or every project of one user. */
export type SendingScope = { projectId: string } | { userId: string };

function inScope(scope: SendingScope): SQL {
  // A DM's owner is its project's owner: the user's own DMs across all their projects.
  return 'projectId' in scope
    ? eq(dmMessages.projectId, scope.projectId)
    : eq(dmMessages.ownerUserId, scope.userId);
}

/**
 * Counts by state, sent, failed and held back counted as the campaign's counts are (`dmOutcomeCounts`):
 * `failed` are failed sends, `withheld` the failed DMs held back because of their person. Of the unknown
 * ones those checked no more (their account was removed); of the queued ones those the agent queued.
 */
export type SendingCounts = Record<SendingState, number> & {
  withheld: number;
  delivery_unknown: number;
  queued_by_agent: number;
};

export async function sendingCounts(db: DbOrTx, scope: SendingScope): Promise<SendingCounts> {
  const [row] = await db
    .select({
      ...dmOutcomeCounts(),
      queued: countWhere(eq(dmMessages.state, 'queued')),
      sending: countWhere(eq(dmMessages.state, 'sending')),
      unknown: countWhere(eq(dmMessages.state, 'unknown')),
      delivery_unknown: countWhere(
        and(eq(dmMessages.state, 'unknown'), eq(dmMessages.outcomeCode, ACCOUNT_REMOVED))!,
      ),
      queued_by_agent: countWhere(and(eq(dmMessages.state, 'queued'), queuedByTheAgent)!),
    })
    .from(dmMessages)
    .where(and(inScope(scope), inArray(dmMessages.state, [...SENDING_STATES])));
  const { expired: _notSending, ...counts } = row!;
  return counts;
}

/**
 * The scope's next queued DM (the earliest planned): when it goes and the account it goes from (null when
 * it has none yet), or null when nothing is queued.
 */
export async function nextQueued(
  db: DbOrTx,
  scope: SendingScope,
): Promise<{ scheduledFor: Date; account: RedditAccountRow | null } | null> {
  const [row] = await db
    .select({ scheduledFor: dmMessages.scheduledFor, account: redditAccounts })
    .from(dmMessages)
    .leftJoin(redditAccounts, eq(redditAccounts.id, dmMessages.accountId))
    .where(and(inScope(scope), eq(dmMessages.state, 'queued'), isNotNull(dmMessages.scheduledFor)))
    .orderBy(asc(dmMessages.scheduledFor), asc(dmMessages.id))
    .limit(1);
  return row?.scheduledFor ? { scheduledFor: row.scheduledFor, account: row.account } : null;
}

export interface SendingRow {
  dm: DmMessageRow;
  accountUsername: string | null;
}

/**
 * One page of DMs in the sending states: those on their way first (sending, unknown, then queued by when
 * they go), then the others, latest change first.
 */
export async function listSending(
  db: DbOrTx,
  scope: SendingScope,
  page: { limit: number; offset: number; state?: SendingState | undefined },
): Promise<{ rows: SendingRow[]; total: number }> {
  const where = and(
    inScope(scope),
    inArray(dmMessages.state, page.state ? [page.state] : [...SENDING_STATES]),
  );
  const rank = sql`case ${dmMessages.state} when 'sending' then 0 when 'unknown' then 1 when 'queued' then 2 else 3 end`;
  const [rows, totals] = await Promise.all([
    db
      .select({ dm: dmMessages, accountUsername: dmSenderName })
      .from(dmMessages)
      .where(where)
      .orderBy(
        rank,
        sql`case when ${dmMessages.state} = 'queued' then ${dmMessages.scheduledFor} end asc nulls last`,
        desc(dmMessages.updatedAt),
        asc(dmMessages.id),
      )
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(dmMessages).where(where),
  ]);
  return { rows, total: totals[0]?.n ?? 0 };
}
