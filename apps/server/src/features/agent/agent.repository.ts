import {
  and,
  count,
  desc,
  eq,
  gt,
  gte,
  inArray,
  isNotNull,
  isNull,
  lt,
  lte,
  max,
  ne,
  or,
  sql,
} from 'drizzle-orm';
import type { TAgentLogType, TBehaviorAction, TSendOutcomeCode } from '@threadreach/contract';
import type { DbOrTx } from '../../db/client';
import { redditAccounts, type RedditAccountRow } from '../accounts/accounts.table';
import { agentMaySend } from '../dms';
import { dmMessages, messageExamples, type MessageExampleRow } from '../dms/dms.table';
import { leads } from '../leads/leads.table';
import { projects, type ProjectRow } from '../projects/projects.table';
import { unqueuedChanges, unqueueProjectDms } from '../sending';
import {
  agentLogs,
  agentPatterns,
  agentSettings,
  behaviorLogs,
  type AgentLogRow,
  type AgentPatternsRow,
  type AgentSettingsRow,
  type BehaviorLogRow,
} from './agent.table';

export type AgentSettingsChange = Partial<Omit<AgentSettingsRow, 'projectId' | 'updatedAt'>>;

export async function findSettings(db: DbOrTx, projectId: string): Promise<AgentSettingsRow | null> {
  const [row] = await db.select().from(agentSettings).where(eq(agentSettings.projectId, projectId));
  return row ?? null;
}

/**
 * The project's agent settings, locked until the transaction ends: a stop (which changes them first) and
 * the agent's queueing take this lock before any DM's, so one of them waits for the other.
 */
export async function lockSettings(tx: DbOrTx, projectId: string): Promise<AgentSettingsRow | null> {
  const [row] = await tx
    .select()
    .from(agentSettings)
    .where(eq(agentSettings.projectId, projectId))
    .for('update');
  return row ?? null;
}

/** Changes a project's agent settings, creating its row with the defaults on the first change. */
export async function saveSettings(
  db: DbOrTx,
  projectId: string,
  change: AgentSettingsChange,
  now: Date,
): Promise<AgentSettingsRow> {
  const [row] = await db
    .insert(agentSettings)
    .values({ projectId, ...change, updatedAt: now })
    .onConflictDoUpdate({ target: agentSettings.projectId, set: { ...change, updatedAt: now } })
    .returning();
  return row!;
}

/**
 * Takes the run lease of the project's agent: at most one run at a time, whoever starts it (the
 * schedule or Execute). A lease older than `staleBefore` belonged to a process that died mid-run.
 */
export async function claimRunLease(
  db: DbOrTx,
  projectId: string,
  now: Date,
  staleBefore: Date,
): Promise<AgentSettingsRow | null> {
  await db.insert(agentSettings).values({ projectId, updatedAt: now }).onConflictDoNothing();
  const [row] = await db
    .update(agentSettings)
    .set({ runStartedAt: now })
    .where(
      and(
        eq(agentSettings.projectId, projectId),
        or(isNull(agentSettings.runStartedAt), lt(agentSettings.runStartedAt, staleBefore)),
      ),
    )
    .returning();
  return row ?? null;
}

export async function releaseRunLease(
  db: DbOrTx,
  projectId: string,
  leaseAt: Date,
  change: AgentSettingsChange,
): Promise<void> {
  await db
    .update(agentSettings)
    .set({ ...change, runStartedAt: null })
    .where(and(eq(agentSettings.projectId, projectId), eq(agentSettings.runStartedAt, leaseAt)));
}

/** The user's projects whose agent is on: learned, active and not paused. */
export async function activeAgentsOfOwner(db: DbOrTx, ownerId: string): Promise<string[]> {
  const rows = await db
    .select({ projectId: agentSettings.projectId })
    .from(agentSettings)
    .innerJoin(projects, eq(projects.id, agentSettings.projectId))
    .where(
      and(
        eq(projects.userId, ownerId),
        eq(agentSettings.mode, 'agent'),
        eq(agentSettings.isActive, true),
        eq(agentSettings.learningStageCompleted, true),
        isNull(agentSettings.pausedReason),
      ),
    );
  return rows.map((r) => r.projectId);
}

/** Projects whose agent is on and whose next run is overdue: a lost chain to start again. */
export async function overdueAgents(db: DbOrTx, before: Date, limit: number): Promise<string[]> {
  const rows = await db
    .select({ projectId: agentSettings.projectId })
    .from(agentSettings)
    .where(
      and(
        eq(agentSettings.mode, 'agent'),
        eq(agentSettings.isActive, true),
        eq(agentSettings.learningStageCompleted, true),
        isNull(agentSettings.pausedReason),
        lt(agentSettings.nextRunAt, before),
      ),
    )
    .limit(limit);
  return rows.map((r) => r.projectId);
}

export async function findProjectRow(db: DbOrTx, projectId: string): Promise<ProjectRow | null> {
  const [row] = await db.select().from(projects).where(eq(projects.id, projectId));
  return row ?? null;
}

export async function findPatterns(db: DbOrTx, projectId: string): Promise<AgentPatternsRow | null> {
  const [row] = await db.select().from(agentPatterns).where(eq(agentPatterns.projectId, projectId));
  return row ?? null;
}

export async function savePatterns(db: DbOrTx, row: AgentPatternsRow): Promise<void> {
  await db
    .insert(agentPatterns)
    .values(row)
    .onConflictDoUpdate({
      target: agentPatterns.projectId,
      set: { patterns: row.patterns, examplesUsed: row.examplesUsed, learnedAt: row.learnedAt },
    });
}

export async function deletePatterns(db: DbOrTx, projectId: string): Promise<void> {
  await db.delete(agentPatterns).where(eq(agentPatterns.projectId, projectId));
}

export async function insertBehaviorLogs(
  db: DbOrTx,
  rows: {
    projectId: string;
    userId: string;
    actionType: TBehaviorAction;
    metadata: Record<string, unknown>;
  }[],
  now: Date,
): Promise<number> {
  if (rows.length === 0) return 0;
  const inserted = await db
    .insert(behaviorLogs)
    .values(rows.map((r) => ({ ...r, createdAt: now })))
    .returning({ id: behaviorLogs.id });
  return inserted.length;
}

export async function listBehaviorLogs(
  db: DbOrTx,
  projectId: string,
  query: { actionType?: TBehaviorAction | undefined; limit: number; offset: number },
): Promise<{ rows: BehaviorLogRow[]; total: number }> {
  const where = and(
    eq(behaviorLogs.projectId, projectId),
    query.actionType ? eq(behaviorLogs.actionType, query.actionType) : undefined,
  );
  const rows = await db
    .select()
    .from(behaviorLogs)
    .where(where)
    .orderBy(desc(behaviorLogs.createdAt), desc(behaviorLogs.id))
    .limit(query.limit)
    .offset(query.offset);
  const [total] = await db.select({ n: count() }).from(behaviorLogs).where(where);
  return { rows, total: total?.n ?? 0 };
}

export async function countBehaviorLogs(db: DbOrTx, projectId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(behaviorLogs)
    .where(eq(behaviorLogs.projectId, projectId));
  return row?.n ?? 0;
}

export async function insertAgentLog(
  db: DbOrTx,
  log: {
    projectId: string;
    activityType: TAgentLogType;
    success: boolean;
    message: string;
    details: Record<string, unknown>;
  },
  now: Date,
): Promise<void> {
  await db.insert(agentLogs).values({ ...log, createdAt: now });
}

export async function listAgentLogs(
  db: DbOrTx,
  projectId: string,
  query: { activityType?: TAgentLogType | undefined; limit: number; offset: number },
): Promise<{ rows: AgentLogRow[]; total: number }> {
  const where = and(
    eq(agentLogs.projectId, projectId),
    query.activityType ? eq(agentLogs.activityType, query.activityType) : undefined,
  );
  const rows = await db
    .select()
    .from(agentLogs)
    .where(where)
    .orderBy(desc(agentLogs.createdAt), desc(agentLogs.id))
    .limit(query.limit)
    .offset(query.offset);
  const [total] = await db.select({ n: count() }).from(agentLogs).where(where);
  return { rows, total: total?.n ?? 0 };
}

/** Step 5's overview: steps that worked, steps that failed, and the last one. */
export async function agentLogSummary(
  db: DbOrTx,
  projectId: string,
): Promise<{ succeeded: number; failed: number; last: Date | null }> {
  const [row] = await db
    .select({
      succeeded: sql<number>`count(*) filter (where ${agentLogs.success})`.mapWith(Number),
      failed: sql<number>`count(*) filter (where not ${agentLogs.success})`.mapWith(Number),
      last: max(agentLogs.createdAt),
    })
    .from(agentLogs)
    .where(eq(agentLogs.projectId, projectId));
  return { succeeded: row?.succeeded ?? 0, failed: row?.failed ?? 0, last: row?.last ?? null };
}

export async function listExamples(
  db: DbOrTx,
  projectId: string,
  page: { limit: number; offset: number },
): Promise<{ rows: MessageExampleRow[]; total: number }> {
  const rows = await db
    .select()
    .from(messageExamples)
    .where(eq(messageExamples.projectId, projectId))
    .orderBy(desc(messageExamples.createdAt), desc(messageExamples.id))
    .limit(page.limit)
    .offset(page.offset);
  return { rows, total: await countExamples(db, projectId) };
}

export async function countExamples(db: DbOrTx, projectId: string, since?: Date | null): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(messageExamples)
    .where(
      and(eq(messageExamples.projectId, projectId), since ? gt(messageExamples.createdAt, since) : undefined),
    );
  return row?.n ?? 0;
}

/** The newest saved edits, what patterns are learned from. */
export async function recentExampleTexts(db: DbOrTx, projectId: string, limit: number): Promise<string[]> {
  const rows = await db
    .select({ text: messageExamples.finalMessage })
    .from(messageExamples)
    .where(eq(messageExamples.projectId, projectId))
    .orderBy(desc(messageExamples.createdAt), desc(messageExamples.id))
    .limit(limit);
  return rows.map((r) => r.text);
}

export async function insertExamples(
  db: DbOrTx,
  rows: (typeof messageExamples.$inferInsert)[],
): Promise<number> {
  if (rows.length === 0) return 0;
  return (await db.insert(messageExamples).values(rows).returning({ id: messageExamples.id })).length;
}

/**
 * The kill switch: every send the agent queued in the project goes back to the unsent DMs at once, so
 * no job sends it (each send claims a queued DM only). DMs already being sent finish and are reconciled;
 * one that comes back to the queue (it did not leave) is returned to the unsent DMs by its send job.
 * What the customer queued themselves (Send All, a Send that waits) keeps going: stopping the agent, or
 * trying agent mode and leaving it, is no way to lose them.
 */
export async function cancelQueuedSends(
  db: DbOrTx,
  projectId: string,
  reason: string,
  now: Date,
  code: TSendOutcomeCode | null = null,
): Promise<number> {
  return unqueueProjectDms(db, projectId, 'agent', unqueuedChanges(code, reason, now));
}

/** DMs of the project Reddit refused at compose since `since`, with the last reason given. */
export async function composeRefusalsSince(
  db: DbOrTx,
  projectId: string,
  since: Date,
): Promise<{ count: number; lastReason: string | null }> {
  const where = and(
    eq(dmMessages.projectId, projectId),
    inArray(dmMessages.outcomeCode, ['compose_refused', 'sender_suspended', 'not_whitelisted']),
    gte(dmMessages.updatedAt, since),
  );
  const [row] = await db.select({ n: count() }).from(dmMessages).where(where);
  const [last] = await db
    .select({ reason: dmMessages.outcomeReason })
    .from(dmMessages)
    .where(where)
    .orderBy(desc(dmMessages.updatedAt))
    .limit(1);
  return { count: row?.n ?? 0, lastReason: last?.reason ?? null };
}

/** DMs the agent sent since `since`: those it queued (with its limits), not the customer's own. */
export async function countSentSince(db: DbOrTx, projectId: string, since: Date): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(dmMessages)
    .where(
      and(
        eq(dmMessages.projectId, projectId),
        eq(dmMessages.state, 'sent'),
        gte(dmMessages.sentAt, since),
        isNotNull(dmMessages.dailyCap),
      ),
    );
  return row?.n ?? 0;
}

/**
 * The agent's DMs waiting to go: queued ones, and approved ones it may send (agentMaySend). It drafts and
 * hands over no more than its accounts can send in a day.
 */
export async function countAgentPendingDms(
  db: DbOrTx,
  projectId: string,
  minIntentScore: number,
): Promise<{ queued: number; approved: number }> {
  const [row] = await db
    .select({
      queued: sql<number>`count(*) filter (where ${dmMessages.state} = 'queued')::int`,
      approved: sql<number>`count(*) filter (where ${dmMessages.state} = 'approved' and ${agentMaySend(minIntentScore)})::int`,
    })
    .from(dmMessages)
    .where(and(eq(dmMessages.projectId, projectId), inArray(dmMessages.state, ['approved', 'queued'])));
  return { queued: Number(row?.queued ?? 0), approved: Number(row?.approved ?? 0) };
}

/** The project's leads first stored in [from, to]: a search's matches seen before are not among them. */
export async function countLeadsFoundBetween(
  db: DbOrTx,
  projectId: string,
  from: Date,
  to: Date,
): Promise<{ posts: number; comments: number }> {
  const [row] = await db
    .select({
      posts: sql<number>`(count(*) filter (where ${leads.kind} = 'post'))::int`,
      comments: sql<number>`(count(*) filter (where ${leads.kind} = 'comment'))::int`,
    })
    .from(leads)
    .where(and(eq(leads.projectId, projectId), gte(leads.foundAt, from), lte(leads.foundAt, to)));
  return { posts: row?.posts ?? 0, comments: row?.comments ?? 0 };
}

/** The project's signed-in accounts that send, with what sizes a day of their sends. */
export async function listSendingAccountLimits(
  db: DbOrTx,
  projectId: string,
): Promise<Pick<RedditAccountRow, 'accountCreatedAt' | 'dailyMessageLimit'>[]> {
  return db
    .select({
      accountCreatedAt: redditAccounts.accountCreatedAt,
      dailyMessageLimit: redditAccounts.dailyMessageLimit,
    })
    .from(redditAccounts)
    .where(
      and(
        eq(redditAccounts.projectId, projectId),
        eq(redditAccounts.isActive, true),
        eq(redditAccounts.authStatus, 'valid'),
        isNull(redditAccounts.disabledReason),
      ),
    );
}

/**
 * The project's accounts that are switched on and not disabled but signed out of Reddit (Auth Required:
 * their refresh was refused, or they have no grant): re-authenticating them is what lets them send.
 */
export async function listSignedOutAccounts(db: DbOrTx, projectId: string): Promise<string[]> {
  const rows = await db
    .select({ username: redditAccounts.redditUsername })
    .from(redditAccounts)
    .where(
      and(
        eq(redditAccounts.projectId, projectId),
        eq(redditAccounts.isActive, true),
        isNull(redditAccounts.disabledReason),
        or(
          ne(redditAccounts.authStatus, 'valid'),
          isNull(redditAccounts.refreshTokenCiphertext),
          isNull(redditAccounts.credentialId),
        ),
      ),
    )
    .orderBy(redditAccounts.redditUsername);
  return rows.map((r) => r.username);
}

/** Every Reddit account connected to the project, whether it can send or not. */
export async function countProjectAccounts(db: DbOrTx, projectId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(redditAccounts)
    .where(eq(redditAccounts.projectId, projectId));
  return row?.n ?? 0;
}

/** The project's DMs sent since `since`, newest first, with the account they went from. */
export async function sentSince(
  db: DbOrTx,
  projectId: string,
  since: Date,
  limit: number,
): Promise<{
  total: number;
  replies: number;
  rows: {
    id: string;
    recipient: string;
    account: string | null;
    sentAt: Date | null;
    repliedAt: Date | null;
  }[];
}> {
  const where = and(
    eq(dmMessages.projectId, projectId),
    eq(dmMessages.state, 'sent'),
    gte(dmMessages.sentAt, since),
  );
  const [counts] = await db
    .select({
      total: count(),
      replies: sql<number>`count(${dmMessages.repliedAt})`.mapWith(Number),
    })
    .from(dmMessages)
    .where(where);
  const rows = await db
    .select({
      id: dmMessages.id,
      recipient: dmMessages.recipientUsername,
      account: redditAccounts.redditUsername,
      sentAt: dmMessages.sentAt,
      repliedAt: dmMessages.repliedAt,
    })
    .from(dmMessages)
    .leftJoin(redditAccounts, eq(redditAccounts.id, dmMessages.accountId))
    .where(where)
    .orderBy(desc(dmMessages.sentAt), desc(dmMessages.id))
    .limit(limit);
  return { total: counts?.total ?? 0, replies: counts?.replies ?? 0, rows };
}
