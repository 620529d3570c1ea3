import {
  AGENT_TEXTS,
  plural,
  SENDING_TEXTS,
  type TCancelQueuedResponse,
  type TSendDmResponse,
  type TSendDmsBulkResponse,
  type TSendingStatus,
} from '@threadreach/contract';
import type { AppContext } from '../../context';
import type { DbOrTx } from '../../db/client';
import { AppError, notFound } from '../../http/errors';
import {
  accountCapacity,
  LATER_DAY_REASON,
  PACING_REASON,
  type RedditAccountRow,
  startOfZonedDay,
  usedToday,
} from '../accounts';
import { DM_EXPIRED, tooOldToSend } from '../dms';
import type { DmMessageRow } from '../dms/dms.table';
import { accountReadiness, explainNoAccount, formatInstant, type NotReady } from './account-readiness';
import {
  agentRunning,
  findProjectDm,
  listSending,
  nextQueued,
  projectAccounts,
  sendingCounts,
  type SendingScope,
  type SendingState,
  unqueueProjectDms,
} from './claim.repository';
import { queueReconcile } from './reconcile-dms.job';
import { attemptSend, failIfRecipientBlocked, type OnSendStep } from './send-attempt';
import { queuePullForward } from './pull-queue-forward.job';
import { queueSendDm } from './send-dm.job';
import { presentSendingStatus } from './sending.presenter';
import { unqueuedChanges } from '../dms/dms.table';
import { planProjectQueue, rescheduleDm, type AgentPick, type SenderLimits } from './scheduling';

/** The first look at a DM of unknown outcome: Reddit's sent box has it by then if it went. */
const FIRST_RECONCILE_AFTER_MS = 60_000;

/** Refusals about the person or the account's day: the request was fine, the moment or the person not. */
const CONFLICTS = new Set([
  'already_contacted',
  'suppressed',
  'replied',
  'user_doesnt_exist',
  'not_whitelisted',
  'daily_limit_reached',
  'rate_limited',
  'outside_working_hours',
  'pacing_delay',
  'budget_wait',
  'reddit_unavailable',
]);

function refusal(problem: { code: string; reason: string }): AppError {
  return new AppError(CONFLICTS.has(problem.code) ? 409 : 422, problem.code, problem.reason);
}

export interface SendOptions {
  /** Pacing's random draws (delays); tests give a seeded one. */
  random?: () => number;
  onStep?: OnSendStep;
  /** Send All only: limits the sender asks for on top of each account's own (the agent's settings). */
  senderLimits?: SenderLimits;
  /** Send All only: the agent's choice among the approved DMs. */
  pick?: AgentPick;
  /**
   * Send All only: runs first in the queueing transaction, before any DM is locked; throwing ends it
   * with nothing queued (the agent, stopped meanwhile).
   */
  beforeQueue?: (tx: DbOrTx) => Promise<void>;
}

/** A Send of a DM whose lead is older than DM_EXPIRY_DAYS, expired or failed before. */
const tooOldRefusal = () => new AppError(409, 'dm_expired', DM_EXPIRED);

function refuseByState(dm: DmMessageRow): AppError | null {
  const who = `u/${dm.recipientUsername}`;
  switch (dm.state) {
    case 'sent':
      return new AppError(409, 'already_sent', `This DM was already sent to ${who}`);
    case 'sending':
    case 'unknown':
      return new AppError(
        409,
        'send_in_progress',
        `This DM to ${who} is being sent or checked; it will not be sent twice`,
      );
    case 'draft':
      return new AppError(409, 'not_approved', 'Approve this DM before sending it');
    case 'expired':
      return tooOldRefusal();
    default:
      return null;
  }
}

/**
 * A person's Send and Send All are refused while the project's agent runs autonomously: its schedule
 * sends the project's DMs, within its own limits, and the page covers them under its overlay. A second
 * tab or a script would otherwise send beside it, or send a DM it queued before its time.
 */
async function refuseWhileAgentRuns(db: DbOrTx, projectId: string, lock = false): Promise<void> {
  if (await agentRunning(db, projectId, lock)) {
    throw new AppError(409, 'agent_running', AGENT_TEXTS.stopAgentToSend);
  }
}

/** The project's accounts that can send now, the one with the most room first, and why the others cannot. */
async function accountsForNow(
  ctx: AppContext,
  accounts: RedditAccountRow[],
): Promise<{ ready: RedditAccountRow[]; problems: NotReady[] }> {
  const nowMs = ctx.clock.now();
  const ready: { account: RedditAccountRow; remaining: number; used: number }[] = [];
  const problems: NotReady[] = [];
  for (const account of accounts) {
    const used = await usedToday(ctx.db, account, nowMs);
    const readiness = accountReadiness(account, used, nowMs);
    if (readiness.ready) ready.push({ account, remaining: readiness.remaining, used });
    else problems.push(readiness);
  }
  ready.sort(
    (a, b) => b.remaining - a.remaining || a.used - b.used || a.account.id.localeCompare(b.account.id),
  );
  return { ready: ready.map((r) => r.account), problems };
}

/**
 * A person's Send: the DM goes now from the project's ready account with the most capacity left (each
 * claim re-checks that account). An account that cannot send hands it to the next one; when Reddit
 * asks to wait, the DM is queued and goes by itself. Refusals carry their reason.
 */
export async function sendDmNow(
  ctx: AppContext,
  projectId: string,
  request: { dmId?: string | undefined; postId?: string | undefined },
  options: SendOptions = {},
): Promise<TSendDmResponse> {
  const random = options.random ?? Math.random;
  // Before anything else: even expiring a DM too old is the agent's to do while it runs. A start racing
  // this Send is the Send a moment earlier; the agent's DMs are queued by its runs, after the start.
  await refuseWhileAgentRuns(ctx.db, projectId);
  const dm = await findProjectDm(ctx.db, projectId, request);
  if (!dm) throw notFound('DM not found');
  // A lead too old expires its DM now (a failed one stays failed), even when no account could try it.
  if (await tooOldToSend(ctx, ctx.db, dm)) throw tooOldRefusal();
  const byState = refuseByState(dm);
  if (byState) throw byState;
  const accounts = await projectAccounts(ctx.db, projectId);
  if (accounts.length === 0) {
    throw new AppError(422, 'no_accounts', SENDING_TEXTS.noAccounts);
  }
  const { ready, problems } = await accountsForNow(ctx, accounts);
  const recipient = dm.recipientUsername;
  const target = { projectId, dmId: dm.id };
  const senders = new Map(accounts.map((a) => [a.id, a.redditUsername]));
  const refusedSenders: string[] = [];
  for (const account of ready) {
    const result = await attemptSend(ctx, {
      ...target,
      accountId: account.id,
      paced: false,
      onStep: options.onStep,
    });
    switch (result.kind) {
      case 'sent':
        return {
          recipient,
          dm_id: dm.id,
          state: 'sent',
          account: account.redditUsername,
          scheduled_for: null,
          message: SENDING_TEXTS.sentTo(recipient),
        };
      case 'unknown':
        await queueReconcile(
          ctx,
          { projectId, accountId: account.id },
          ctx.clock.now() + FIRST_RECONCILE_AFTER_MS,
        );
        return {
          recipient,
          dm_id: dm.id,
          state: 'unknown',
          account: account.redditUsername,
          scheduled_for: null,
          message: `Reddit did not confirm the DM to u/${recipient}. It is being checked against u/${account.redditUsername}'s sent messages and will not be sent twice.`,
        };
      case 'failed':
        await queuePullForward(ctx, projectId);
        throw refusal(result);
      case 'not_claimable':
        if (result.tooOld) throw tooOldRefusal();
        throw (result.dm && refuseByState(result.dm)) ?? new AppError(409, 'dm_changed', result.reason);
      case 'account_not_ready':
        problems.push(result);
        continue;
      case 'retry_same':
        problems.push({ code: result.code, reason: result.reason, retryAtMs: result.retryAtMs });
        continue;
      case 'retry_elsewhere':
        refusedSenders.push(account.id);
        problems.push({ code: result.code, reason: result.reason, retryAtMs: null });
        continue;
    }
  }
  // No account could try it, so no claim checked its person: one the workspace may never contact again
  // is the answer, not a wait for the accounts.
  if (ready.length === 0) {
    const blocked = await failIfRecipientBlocked(ctx, target);
    if (blocked) throw refusal(blocked);
  }
  // No account sent it. If it was queued again on the way (a wait from Reddit, a refused sender), it
  // goes by itself later; otherwise nothing changed and the reason is the answer.
  let current = await findProjectDm(ctx.db, projectId, { dmId: dm.id });
  if (current?.state === 'queued' && !current.accountId) {
    await rescheduleDm(ctx, target, { excludeAccountIds: refusedSenders, random });
    current = await findProjectDm(ctx.db, projectId, { dmId: dm.id });
  }
  if (current?.state === 'queued' && current.accountId && current.scheduledFor) {
    const at = current.scheduledFor.getTime();
    await queueSendDm(ctx, target, at);
    const why = current.outcomeReason ?? 'The DM waits for its account';
    return {
      recipient,
      dm_id: dm.id,
      state: 'queued',
      account: senders.get(current.accountId) ?? null,
      scheduled_for: current.scheduledFor.toISOString(),
      message: `${why}. The DM to u/${recipient} is queued for ${formatInstant(at, accounts.find((a) => a.id === current.accountId)?.timezone)}.`,
    };
  }
  throw refusal(explainNoAccount(problems, SENDING_TEXTS.noAccounts));
}

/**
 * Send All: queues the project's approved, unsent DMs over its ready accounts (pacing.ts) and one
 * send-dm job per DM for when it is due.
 */
export async function queueProjectDms(
  ctx: AppContext,
  projectId: string,
  options: SendOptions = {},
): Promise<TSendDmsBulkResponse> {
  const plan = await planProjectQueue(
    ctx,
    projectId,
    options.random ?? Math.random,
    options.senderLimits ?? null,
    options.pick ?? null,
    options.beforeQueue,
  );
  if (plan.kind === 'no_accounts') throw new AppError(422, 'no_accounts', SENDING_TEXTS.noAccountsBulk);
  if (plan.kind === 'no_dms') throw new AppError(422, 'no_unsent_messages', SENDING_TEXTS.noUnsentMessages);
  if (plan.kind === 'no_ready_account') {
    throw refusal(explainNoAccount(plan.problems, SENDING_TEXTS.noAccountsBulk));
  }
  for (const { dm, slot } of plan.queued) {
    try {
      await queueSendDm(ctx, { projectId, dmId: dm.id }, slot.at);
    } catch (error) {
      // The DM is queued in the database: the sweep gives it a job once it is overdue.
      ctx.log.warn({ err: error, dmId: dm.id }, 'send job not queued; the sweep will queue it');
    }
  }
  const times = plan.queued.map((q) => q.slot.at);
  const first = times.length ? Math.min(...times) : null;
  const last = times.length ? Math.max(...times) : null;
  const perAccount = plan.accounts
    .map((a) => ({
      account_id: a.id,
      reddit_username: a.redditUsername,
      queued: plan.queued.filter((q) => q.slot.accountId === a.id).length,
    }))
    .filter((a) => a.queued > 0);
  // The accounts' own zone when they share one: their working hours are read in it.
  const zones = [
    ...new Set(
      plan.accounts.filter((a) => perAccount.some((p) => p.account_id === a.id)).map((a) => a.timezone),
    ),
  ];
  return {
    message: bulkMessage(
      plan.queued.length,
      perAccount.length,
      first,
      last,
      plan.skipped.length,
      plan.held,
      plan.unplanned,
      plan.tooOld,
      ctx.config.dms.expiryDays,
      zones.length === 1 ? zones[0]! : 'UTC',
    ),
    queued: plan.queued.length,
    skipped: plan.skipped.length,
    first_at: first === null ? null : new Date(first).toISOString(),
    last_at: last === null ? null : new Date(last).toISOString(),
    accounts: perAccount,
  };
}

/**
 * A person's Send All: refused while the agent runs. Checked under the lock of the agent's settings row,
 * first in the queueing transaction as the agent's own queueing does: the start and every stop change
 * that row, so either one waits for this queueing or this finds the agent's state after it.
 */
export async function sendAllDms(ctx: AppContext, projectId: string): Promise<TSendDmsBulkResponse> {
  return queueProjectDms(ctx, projectId, { beforeQueue: (tx) => refuseWhileAgentRuns(tx, projectId, true) });
}

/** Why a DM taken back by Stop sending did not go. */
export const STOPPED_REASON = 'Sending was stopped before this DM went';

/**
 * Stop sending: every DM the customer queued in the project (Send All, a Send that waits) goes back to
 * the unsent DMs at once, so no job sends it (each send claims a queued DM only); Send All queues them
 * again. DMs already being sent finish. The agent's queued sends stay: Stop Agent takes those back.
 */
export async function cancelQueuedDms(ctx: AppContext, projectId: string): Promise<TCancelQueuedResponse> {
  const changes = unqueuedChanges(null, STOPPED_REASON, new Date(ctx.clock.now()));
  const cancelled = await unqueueProjectDms(ctx.db, projectId, 'customer', changes);
  return {
    cancelled,
    message:
      cancelled === 0
        ? 'No DM you queued was waiting to go.'
        : `Sending stopped: ${plural(cancelled, 'queued DM')} went back to the unsent DMs. Send All queues them again.`,
  };
}

function bulkMessage(
  queued: number,
  accounts: number,
  first: number | null,
  last: number | null,
  skipped: number,
  held: number,
  unplanned: number,
  tooOld: number,
  expiryDays: number,
  timeZone: string,
): string {
  const parts: string[] = [];
  if (queued > 0 && first !== null && last !== null) {
    parts.push(
      queued === 1
        ? `Queued 1 DM on 1 account: it goes at ${formatInstant(first, timeZone)}.`
        : `Queued ${plural(queued, 'DM')} over ${plural(accounts, 'account')}: the first goes at ${formatInstant(first, timeZone)}, the last at ${formatInstant(last, timeZone)}.`,
    );
  } else {
    parts.push('No DM was queued.');
  }
  if (skipped > 0) {
    parts.push(
      `${plural(skipped, 'DM')} not queued: the recipient may not be contacted (see the sending status).`,
    );
  }
  if (held > 0) {
    parts.push(
      held === 1
        ? '1 DM stays unsent: another DM to the same person is already queued in this workspace.'
        : `${plural(held, 'DM')} stay unsent: another DM to the same person is already queued in this workspace.`,
    );
  }
  if (unplanned > 0) {
    const one = unplanned === 1;
    parts.push(
      `${plural(unplanned, 'DM')} found no room before ${one ? 'it expires' : 'they expire'}, ${expiryDays} days after ${one ? 'its' : 'their'} lead, and ${one ? 'stays' : 'stay'} unsent.`,
    );
  }
  if (tooOld > 0) {
    parts.push(
      tooOld === 1
        ? `1 DM is about a post or comment older than ${expiryDays} days: it expires unsent.`
        : `${plural(tooOld, 'DM')} are about posts or comments older than ${expiryDays} days: they expire unsent.`,
    );
  }
  return parts.join(' ');
}

/** Counts by state, when the next queued DM goes and why not sooner, and one page of DMs with their reasons. */
export async function getSendingStatus(
  ctx: AppContext,
  scope: SendingScope,
  query: { limit: number; offset: number; state?: SendingState | undefined },
): Promise<TSendingStatus> {
  const [counts, page, next] = await Promise.all([
    sendingCounts(ctx.db, scope),
    listSending(ctx.db, scope, query),
    nextQueued(ctx.db, scope),
  ]);
  const wait = next ? await whyNotYet(ctx, next) : null;
  return presentSendingStatus({ ...page, limit: query.limit, offset: query.offset }, counts, {
    at: next?.scheduledFor ?? null,
    wait,
  });
}

/**
 * Why the next queued DM waits until its time: its account's reason (outside working hours, a full day,
 * Reddit's wait), or, when the account could send now, the pause paced between two sends, or the later
 * day it was planned for (a send that failed since freed room today). A DM already due waits only for an
 * account that cannot send (signed out, paused). Nothing when it goes now or has no account yet.
 */
async function whyNotYet(
  ctx: AppContext,
  next: { scheduledFor: Date; account: RedditAccountRow | null },
): Promise<TSendingStatus['next_wait']> {
  const nowMs = ctx.clock.now();
  if (!next.account) return null;
  const capacity = await accountCapacity(ctx.db, next.account, nowMs);
  if (next.scheduledFor.getTime() <= nowMs) {
    return capacity.canSendNow || !capacity.reason
      ? null
      : { account_username: next.account.redditUsername, reason: capacity.reason };
  }
  const { timezone } = next.account;
  const laterDay = startOfZonedDay(next.scheduledFor.getTime(), timezone) > startOfZonedDay(nowMs, timezone);
  return {
    account_username: next.account.redditUsername,
    reason: capacity.reason ?? (laterDay ? LATER_DAY_REASON : PACING_REASON),
  };
}
