import { isWithheldOutcome, type TSendOutcomeCode } from '@threadreach/contract';
import type { AppContext } from '../../context';
import {
  RedditApiError,
  RedditAuthError,
  RedditBudgetExhaustedError,
  RedditUnavailableError,
  type ComposeResult,
} from '../../integrations/reddit';
import { AccountAuthRequiredError, usedToday, redditApiForAccount, type RedditAccountRow } from '../accounts';
import { DM_EXPIRED, tooOldToSend } from '../dms';
import { CONTACTED_DM_STATES, type DmMessageRow, type DmState } from '../dms/dms.table';
import { isRecipientBlocked, suppressRecipient, type SuppressionReason } from '../suppressions';
import { accountReadiness, formatInstant, type NotReady } from './account-readiness';
import {
  lastClaimAt,
  lockAccount,
  lockRedditAccount,
  lockDm,
  oneMoreAttempt,
  otherDmTo,
  updateAccount,
  updateDm,
} from './claim.repository';
import { nextWorkingWindow } from './pacing';

/**
 * The boundaries of one send, in order: a process that dies at any of them leaves the DM queued (before
 * the claim) or claimed in `sending` (after it), which recovery turns into unknown and reconciles from
 * the account's sent messages. Tests stop the send at each one.
 */
export const SEND_STEPS = ['before-claim', 'after-claim', 'after-reddit', 'before-mark-sent'] as const;
export type SendStep = (typeof SEND_STEPS)[number];
export type OnSendStep = (step: SendStep, dmId: string) => void | Promise<void>;

export interface AttemptOptions {
  projectId: string;
  dmId: string;
  accountId: string;
  /**
   * Paced sends (Send All, the agent) take only a due, queued DM of this account, inside its working
   * hours and at least its minimum delay after its last send; a person's Send goes now.
   */
  paced: boolean;
  onStep?: OnSendStep | undefined;
}

/** Reddit takes subjects of at most this many characters. */
const SUBJECT_MAX = 100;

/** The subject as it is sent (and found again in the sent messages). */
export function composeSubject(dm: Pick<DmMessageRow, 'subject'>): string {
  return dm.subject.trim().slice(0, SUBJECT_MAX) || 'Hello';
}

/** Reddit's answer could not be read or did not arrive: whether the DM went is not known. */
const UNKNOWN = 'unknown_outcome' satisfies TSendOutcomeCode;

export type AttemptResult =
  /** Reddit took it. */
  | { kind: 'sent'; dm: DmMessageRow; account: RedditAccountRow }
  /** Not known whether Reddit took it; the account's sent messages will tell. */
  | { kind: 'unknown'; dm: DmMessageRow; account: RedditAccountRow; reason: string }
  /** Never to be sent to this person (or Reddit refused the text): the DM failed. */
  | { kind: 'failed'; dm: DmMessageRow | null; code: TSendOutcomeCode; reason: string }
  /** The account may not send now; the DM was left as it was. */
  | ({ kind: 'account_not_ready'; account: RedditAccountRow | null } & NotReady)
  /** Not sent; the DM is queued again on the same account, for `retryAtMs`. */
  | {
      kind: 'retry_same';
      dm: DmMessageRow;
      account: RedditAccountRow;
      code: TSendOutcomeCode;
      reason: string;
      retryAtMs: number;
    }
  /** Not sent, and this account cannot send: the DM is queued again without an account. */
  | {
      kind: 'retry_elsewhere';
      dm: DmMessageRow;
      account: RedditAccountRow;
      code: TSendOutcomeCode;
      reason: string;
    }
  /**
   * The DM is no longer one to send this way (sent, being sent, moved, not due; `tooOld`: its lead is
   * past DM_EXPIRY_DAYS, an unsent DM expired on the way).
   */
  | {
      kind: 'not_claimable';
      dm: DmMessageRow | null;
      reason: string;
      retryAtMs: number | null;
      tooOld?: boolean;
    };

type Claim =
  | { kind: 'claimed'; dm: DmMessageRow; account: RedditAccountRow }
  | Extract<AttemptResult, { kind: 'failed' | 'account_not_ready' | 'not_claimable' }>;

/** States a person's Send may take a DM from: not yet sent, or failed before (sending again). */
const SENDABLE_NOW: readonly DmState[] = ['approved', 'queued', 'failed'];

/**
 * A DM that already failed at Reddit (or in sending) keeps that outcome when a later Send is refused
 * before Reddit: the refusal is answered, but the DM stays counted as the failure it was, on its day.
 */
function keepsItsFailure(dm: DmMessageRow): boolean {
  return dm.state === 'failed' && !isWithheldOutcome(dm.outcomeCode);
}

/**
 * One send of one DM from one account, effectively once: the claim (a committed transaction: the DM
 * moves to `sending` with the account's quota reserved, the person not contacted, answered or
 * suppressed in the workspace), then Reddit, then the outcome. Reddit is called only after the claim
 * committed, and a claim is never undone blindly: an answer that did not arrive leaves the DM unknown.
 */
export async function attemptSend(ctx: AppContext, options: AttemptOptions): Promise<AttemptResult> {
  const step = async (s: SendStep) => options.onStep?.(s, options.dmId);
  await step('before-claim');
  const claim = await claimDm(ctx, options);
  if (claim.kind !== 'claimed') return claim;
  await step('after-claim');
  const outcome = await compose(ctx, claim.account, claim.dm);
  await step('after-reddit');
  return recordOutcome(ctx, claim.dm, claim.account, outcome, step);
}

async function claimDm(ctx: AppContext, options: AttemptOptions): Promise<Claim> {
  const nowMs = ctx.clock.now();
  const now = new Date(nowMs);
  const { projectId, dmId } = options;
  const from = options.paced ? (['queued'] as const) : SENDABLE_NOW;
  try {
    return await ctx.db.transaction(async (tx): Promise<Claim> => {
      const dm = await lockDm(tx, projectId, dmId);
      if (!dm) return { kind: 'not_claimable', dm: null, reason: 'DM not found', retryAtMs: null };
      if (!from.includes(dm.state)) {
        return { kind: 'not_claimable', dm, reason: `The DM is ${dm.state}`, retryAtMs: null };
      }
      if (options.paced) {
        if (dm.accountId !== options.accountId) {
          return { kind: 'not_claimable', dm, reason: 'The DM moved to another account', retryAtMs: null };
        }
        const due = dm.scheduledFor?.getTime() ?? 0;
        if (due > nowMs)
          return { kind: 'not_claimable', dm, reason: 'The DM is not due yet', retryAtMs: due };
      }
      const stale = await tooOldToSend(ctx, tx, dm);
      if (stale) {
        return { kind: 'not_claimable', dm: stale, reason: DM_EXPIRED, retryAtMs: null, tooOld: true };
      }
      const blocked = await recipientBlock(tx, dm);
      if (blocked) return { kind: 'failed', dm: await failBlocked(tx, dm, blocked, now), ...blocked };
      const account = await lockAccount(tx, projectId, options.accountId);
      if (!account) {
        return {
          kind: 'account_not_ready',
          account: null,
          code: 'no_accounts',
          reason: 'The Reddit account is no longer connected to this project',
          retryAtMs: null,
        };
      }
      await lockRedditAccount(tx, account);
      const used = await usedToday(tx, account, nowMs);
      const readiness = accountReadiness(account, used, nowMs);
      if (!readiness.ready) return { kind: 'account_not_ready', account, ...readiness };
      if (options.paced) {
        const paced = await pacingRefusal(tx, account, nowMs);
        if (paced) return { kind: 'account_not_ready', account, ...paced };
      }
      const claimed = await updateDm(
        tx,
        { projectId, dmId, from: [dm.state] },
        {
          state: 'sending',
          accountId: account.id,
          claimedAt: now,
          senderKey: account.redditUsername.toLowerCase(),
          sentAt: null,
          failedAt: null,
          outcomeCode: null,
          outcomeReason: null,
          updatedAt: now,
        },
      );
      return { kind: 'claimed', dm: claimed!, account };
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // A concurrent claim contacted the same person between the check above and this write.
    return ctx.db.transaction(async (tx): Promise<Claim> => {
      const dm = await lockDm(tx, projectId, dmId);
      const reason = dm ? alreadyContacted(dm.recipientUsername, 'sending') : 'DM not found';
      const failed =
        dm && from.includes(dm.state)
          ? await updateDm(
              tx,
              { projectId, dmId, from: [dm.state] },
              {
                state: 'failed',
                failedAt: now,
                outcomeCode: 'already_contacted',
                outcomeReason: reason,
                updatedAt: now,
              },
            )
          : dm;
      return { kind: 'failed', dm: failed, code: 'already_contacted', reason };
    });
  }
}

/**
 * A person's Send that no account can make now: when the workspace may never contact the recipient, the
 * DM fails with that reason at once (as a claim would fail it), instead of the answer being that the
 * accounts must wait. Null when the recipient may still be contacted.
 */
export async function failIfRecipientBlocked(
  ctx: AppContext,
  target: { projectId: string; dmId: string },
): Promise<{ code: TSendOutcomeCode; reason: string } | null> {
  const now = new Date(ctx.clock.now());
  return ctx.db.transaction(async (tx) => {
    const dm = await lockDm(tx, target.projectId, target.dmId);
    if (!dm || !SENDABLE_NOW.includes(dm.state)) return null;
    const blocked = await recipientBlock(tx, dm);
    if (blocked) await failBlocked(tx, dm, blocked, now);
    return blocked;
  });
}

/**
 * Fails a DM whose person the workspace may not contact, with that reason, unless it already failed at
 * Reddit (`keepsItsFailure`); the DM as it is now.
 */
async function failBlocked(
  tx: Parameters<typeof lockDm>[0],
  dm: DmMessageRow,
  blocked: { code: TSendOutcomeCode; reason: string },
  now: Date,
): Promise<DmMessageRow | null> {
  if (keepsItsFailure(dm)) return dm;
  return updateDm(
    tx,
    { projectId: dm.projectId, dmId: dm.id, from: [dm.state] },
    {
      state: 'failed',
      failedAt: now,
      outcomeCode: blocked.code,
      outcomeReason: blocked.reason,
      updatedAt: now,
    },
  );
}

function alreadyContacted(recipient: string, state: DmState): string {
  const how = state === 'sent' ? '' : ' (a DM to them is being sent or checked)';
  return `u/${recipient} was already contacted from this workspace${how}`;
}

/** Why this DM may never go to its recipient from this workspace, or null. */
async function recipientBlock(
  tx: Parameters<typeof lockDm>[0],
  dm: DmMessageRow,
): Promise<{ code: TSendOutcomeCode; reason: string } | null> {
  // Other DMs are read before the list: a project deleted in between moves its contacts from the one to
  // the other in one transaction, so whichever this claim reads first, it sees them in one or the other.
  const contacted = await otherDmTo(tx, dm, CONTACTED_DM_STATES);
  const blocked = await isRecipientBlocked(tx, dm.ownerUserId, dm.recipientUsername);
  if (blocked) return blocked;
  if (contacted)
    return { code: 'already_contacted', reason: alreadyContacted(dm.recipientUsername, contacted.state) };
  return null;
}

/** A paced send waits for the account's working hours and keeps its minimum delay after the last send. */
async function pacingRefusal(
  tx: Parameters<typeof lockDm>[0],
  account: RedditAccountRow,
  nowMs: number,
): Promise<NotReady | null> {
  const name = `u/${account.redditUsername}`;
  const window = nextWorkingWindow(account, nowMs);
  if (!window || window.start > nowMs) {
    return {
      code: 'outside_working_hours',
      reason: `Outside ${name}'s working hours`,
      retryAtMs: window?.start ?? null,
    };
  }
  const last = (await lastClaimAt(tx, account))?.getTime();
  if (last !== undefined && last + account.delayRangeMin * 1000 > nowMs) {
    return {
      code: 'pacing_delay',
      reason: `${name} sent less than ${account.delayRangeMin} s ago`,
      retryAtMs: last + account.delayRangeMin * 1000,
    };
  }
  return null;
}

/** What Reddit's answer (or its absence) means for the DM. */
type ComposeOutcome =
  | { kind: 'sent' }
  | { kind: 'refused'; code: TSendOutcomeCode; reason: string; suppress: SuppressionReason | null }
  | { kind: 'rate_limited'; retryAtMs: number; reason: string }
  /** Nothing reached Reddit's compose (the budget, the token): safe to try again later. */
  | { kind: 'not_sent'; code: TSendOutcomeCode; retryAtMs: number; reason: string }
  /** This account cannot send at all. */
  | {
      kind: 'sender';
      code: 'sender_suspended' | 'account_auth_required';
      reason: string;
      disable: string | null;
    }
  | { kind: 'unknown'; reason: string };

/** A claim still `sending` this long after it was made belongs to a process that ended mid-send. */
export const INTERRUPTED_AFTER_MS = 5 * 60_000;
/**
 * A claimed DM leaves for Reddit within this of its claim or not at all: after the sweep a recovery may
 * hand it to another sender, so one held up longer (a paused process, a long wait for the request budget
 * or a connection) must not send it too. The minute's margin covers clocks of different processes.
 */
const LEAVES_WITHIN_MS = INTERRUPTED_AFTER_MS - 60_000;

/** When Reddit gives no wait with a RATELIMIT, or a reach fails without a retry instant. */
const DEFAULT_WAIT_MS = 60_000;

async function compose(
  ctx: AppContext,
  account: RedditAccountRow,
  dm: DmMessageRow,
): Promise<ComposeOutcome> {
  const nowMs = ctx.clock.now();
  const name = `u/${account.redditUsername}`;
  let api;
  try {
    api = await redditApiForAccount(ctx, account, { wait: false, attempt: 1 });
  } catch (error) {
    return beforeCompose(error, name, nowMs);
  }
  let answer: ComposeResult;
  try {
    answer = await api.compose(
      { to: dm.recipientUsername, subject: composeSubject(dm), text: dm.messageContent },
      { notAfterMs: (dm.claimedAt?.getTime() ?? nowMs) + LEAVES_WITHIN_MS },
    );
  } catch (error) {
    if (
      error instanceof RedditBudgetExhaustedError ||
      error instanceof RedditAuthError ||
      error instanceof AccountAuthRequiredError ||
      // A compose is never retried: this comes from its token grant, or from Reddit's 429 refusing it.
      error instanceof RedditUnavailableError
    ) {
      return beforeCompose(error, name, nowMs);
    }
    if (error instanceof RedditApiError && error.status === 403) {
      return {
        kind: 'sender',
        code: 'sender_suspended',
        reason: `Reddit refused to send from ${name} (403 Forbidden); the DM moves to another account`,
        disable: `Reddit refused to send from ${name} (403 Forbidden): the account may be suspended`,
      };
    }
    if (error instanceof RedditApiError && error.status >= 400 && error.status < 500) {
      return {
        kind: 'refused',
        code: 'compose_refused',
        reason: `Reddit refused the DM (${error.status}${error.reason ? ` ${error.reason}` : ''})`,
        suppress: null,
      };
    }
    // Broken connection, timeout, 5xx, an unreadable answer, or anything after the request left.
    return {
      kind: 'unknown',
      reason: `Reddit did not confirm the DM (${(error as Error).message}); checking ${name}'s sent messages before anything is sent again`,
    };
  }
  if (answer.ok) return { kind: 'sent' };
  const who = `u/${dm.recipientUsername}`;
  switch (answer.code) {
    case 'USER_DOESNT_EXIST':
      return {
        kind: 'refused',
        code: 'user_doesnt_exist',
        reason: `Reddit says ${who} doesn't exist (deleted or suspended); added to the do-not-contact list`,
        suppress: 'user_doesnt_exist',
      };
    case 'NOT_WHITELISTED_BY_USER_MESSAGE':
      return {
        kind: 'refused',
        code: 'not_whitelisted',
        reason: `${who} does not accept messages from ${name}; added to the do-not-contact list`,
        suppress: 'not_whitelisted',
      };
    case 'RATELIMIT': {
      const waitMs =
        answer.retryAfterSeconds !== null ? Math.ceil(answer.retryAfterSeconds) * 1000 : DEFAULT_WAIT_MS;
      const retryAtMs = nowMs + waitMs + 1000;
      return {
        kind: 'rate_limited',
        retryAtMs,
        reason: `Reddit asked ${name} to wait (${answer.message}); the DM goes at ${formatInstant(retryAtMs)}`,
      };
    }
    default:
      return {
        kind: 'refused',
        code: 'compose_refused',
        reason: `Reddit refused the DM: ${answer.message} (${answer.code})`,
        suppress: null,
      };
  }
}

/** Failures before the compose request left: the DM was not sent. */
function beforeCompose(error: unknown, name: string, nowMs: number): ComposeOutcome {
  if (error instanceof AccountAuthRequiredError || error instanceof RedditAuthError) {
    return {
      kind: 'sender',
      code: 'account_auth_required',
      reason: `${name} needs to be re-authenticated; the DM moves to another account`,
      disable: null,
    };
  }
  if (error instanceof RedditBudgetExhaustedError) {
    return {
      kind: 'not_sent',
      code: 'budget_wait',
      retryAtMs: error.retryAtMs,
      reason: `${error.reason}; the DM waits until ${formatInstant(error.retryAtMs)}`,
    };
  }
  const retryAtMs =
    error instanceof RedditUnavailableError && error.retryAtMs ? error.retryAtMs : nowMs + DEFAULT_WAIT_MS;
  return {
    kind: 'not_sent',
    code: 'reddit_unavailable',
    retryAtMs,
    reason: `Reddit could not be reached before the DM left (${(error as Error).message}); it goes at ${formatInstant(retryAtMs)}`,
  };
}

async function recordOutcome(
  ctx: AppContext,
  dm: DmMessageRow,
  account: RedditAccountRow,
  outcome: ComposeOutcome,
  step: (s: SendStep) => Promise<void>,
): Promise<AttemptResult> {
  const nowMs = ctx.clock.now();
  const now = new Date(nowMs);
  // Only this claim's DM, while sending (or already marked unknown by recovery), is changed.
  const guard = {
    projectId: dm.projectId,
    dmId: dm.id,
    from: ['sending', 'unknown'] as DmState[],
    claimedAt: dm.claimedAt!,
  };
  const result = await ctx.db.transaction(async (tx): Promise<AttemptResult> => {
    let result: AttemptResult;
    switch (outcome.kind) {
      case 'sent': {
        const row = await updateDm(tx, guard, {
          state: 'sent',
          sentAt: now,
          outcomeCode: 'sent',
          outcomeReason: `Sent from u/${account.redditUsername}`,
          attempts: oneMoreAttempt,
          updatedAt: now,
        });
        result = row ? { kind: 'sent', dm: row, account } : superseded(dm);
        break;
      }
      case 'refused': {
        const row = await updateDm(tx, guard, {
          state: 'failed',
          failedAt: now,
          outcomeCode: outcome.code,
          outcomeReason: outcome.reason,
          attempts: oneMoreAttempt,
          updatedAt: now,
        });
        if (row && outcome.suppress) {
          await suppressRecipient(
            tx,
            dm.ownerUserId,
            { username: dm.recipientUsername, reason: outcome.suppress, note: outcome.reason },
            now,
          );
        }
        result = row
          ? { kind: 'failed', dm: row, code: outcome.code, reason: outcome.reason }
          : superseded(dm);
        break;
      }
      case 'rate_limited':
      case 'not_sent': {
        const code = outcome.kind === 'rate_limited' ? 'rate_limited' : outcome.code;
        const row = await updateDm(tx, guard, {
          state: 'queued',
          claimedAt: null,
          senderKey: null,
          scheduledFor: new Date(outcome.retryAtMs),
          outcomeCode: code,
          outcomeReason: outcome.reason,
          ...(outcome.kind === 'rate_limited' ? { attempts: oneMoreAttempt } : {}),
          updatedAt: now,
        });
        if (row && outcome.kind === 'rate_limited') {
          const later = Math.max(outcome.retryAtMs, account.nextSendAt?.getTime() ?? 0);
          await updateAccount(tx, account.projectId, account.id, {
            nextSendAt: new Date(later),
            updatedAt: now,
          });
        }
        result = row
          ? {
              kind: 'retry_same',
              dm: row,
              account,
              code,
              reason: outcome.reason,
              retryAtMs: outcome.retryAtMs,
            }
          : superseded(dm);
        break;
      }
      case 'sender': {
        const row = await updateDm(tx, guard, {
          state: 'queued',
          claimedAt: null,
          senderKey: null,
          accountId: null,
          scheduledFor: now,
          outcomeCode: outcome.code,
          outcomeReason: outcome.reason,
          ...(outcome.code === 'sender_suspended' ? { attempts: oneMoreAttempt } : {}),
          updatedAt: now,
        });
        await updateAccount(
          tx,
          account.projectId,
          account.id,
          outcome.disable
            ? { disabledReason: outcome.disable, updatedAt: now }
            : { authStatus: 'expired', authCheckedAt: now, updatedAt: now },
        );
        result = row
          ? { kind: 'retry_elsewhere', dm: row, account, code: outcome.code, reason: outcome.reason }
          : superseded(dm);
        break;
      }
      case 'unknown': {
        const row = await updateDm(tx, guard, {
          state: 'unknown',
          outcomeCode: UNKNOWN,
          outcomeReason: outcome.reason,
          attempts: oneMoreAttempt,
          updatedAt: now,
        });
        result = row ? { kind: 'unknown', dm: row, account, reason: outcome.reason } : superseded(dm);
        break;
      }
    }
    await step('before-mark-sent');
    return result;
  });
  if (result.kind === 'not_claimable') {
    ctx.log.warn(
      { dmId: dm.id, outcome: outcome.kind },
      'send outcome not recorded: the DM was settled meanwhile',
    );
  }
  return result;
}

function superseded(dm: DmMessageRow): AttemptResult {
  return { kind: 'not_claimable', dm, reason: 'The DM was settled meanwhile', retryAtMs: null };
}

function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}
