import { and, eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { RedditApi, TRedditMessage } from '../../integrations/reddit';
import { retryAtOf } from '../../jobs/job';
import { AccountAuthRequiredError, asAccount, redditAccounts } from '../accounts';
import type { DmMessageRow } from '../dms/dms.table';
import {
  accountsWithUnknownDms,
  markInterruptedSends,
  overdueQueuedDms,
  unknownDmsOf,
  updateDm,
} from './claim.repository';
import { rescheduleDm } from './scheduling';
import { composeSubject, INTERRUPTED_AFTER_MS } from './send-attempt';

/**
 * A DM of unknown outcome absent from the account's sent messages this long after its claim was not
 * delivered: far beyond the 30 s a compose may take, so a late compose cannot still land.
 */
export const NOT_DELIVERED_AFTER_MS = 10 * 60_000;
/** Composes that reached Reddit before a DM that was never delivered stops being sent again. */
export const MAX_SEND_ATTEMPTS = 3;
/** A queued DM this late is looked at again by the sweep (its job was lost or is late). */
export const OVERDUE_AFTER_MS = 2 * 60_000;
/** Clocks of Reddit and of our processes may differ by this much. */
const CLOCK_SKEW_MS = 2 * 60_000;
const SENT_PAGE_SIZE = 100;
/** Pages of sent messages read per run (1000 messages); older claims wait for a later run. */
const MAX_SENT_PAGES = 10;
/** A run that could not look (pages left) tries again after this. */
const LOOK_AGAIN_MS = 60 * 60_000;
/**
 * A run that could not look because the account is signed out tries again after this: it costs no Reddit
 * request, and the customer who re-authenticates expects the check to follow.
 */
const SIGNED_OUT_LOOK_AGAIN_MS = 60_000;

export interface ReconcileReport {
  confirmed: number;
  /** Not delivered, queued to be sent again. */
  requeued: number;
  /** Not delivered, after MAX_SEND_ATTEMPTS: failed. */
  failed: number;
  /** Not decided yet. */
  waiting: number;
  /** When to look again for the DMs still waiting, or null. */
  retryAtMs: number | null;
}

/** Why a DM of unknown outcome stays unchecked while its account is signed out of Reddit. */
export function waitingForSignIn(account: string, recipient: string): string {
  return `Reddit did not confirm the DM. Re-authenticate u/${account} so its sent messages can be checked; until then u/${recipient} counts as contacted and is not sent it again.`;
}

const normalize = (text: string) => text.replace(/\s+/g, ' ').trim();

/** Reddit shows chat-era messages with this subject instead of the one that was sent. */
const CHAT_SUBJECT = '[direct chat room]';

function matches(dm: DmMessageRow, message: TRedditMessage): boolean {
  const claimedAt = dm.claimedAt?.getTime() ?? 0;
  return (
    message.dest.toLowerCase() === dm.recipientKey &&
    normalize(message.body) === normalize(dm.messageContent) &&
    (message.subject === composeSubject(dm) || message.subject === CHAT_SUBJECT) &&
    message.created_utc * 1000 >= claimedAt - CLOCK_SKEW_MS
  );
}

/**
 * Settles the account's DMs of unknown outcome from its sent messages (newest first, paged back to the
 * oldest claim): a DM found there was sent; one still absent NOT_DELIVERED_AFTER_MS after its claim was
 * not delivered, and is queued again (or fails as 'not delivered' after MAX_SEND_ATTEMPTS). Nothing is
 * decided from a partial read: without the whole window the DM stays unknown, and its recipient stays
 * contacted, so it is never sent twice.
 */
export async function reconcileAccount(
  ctx: AppContext,
  target: { projectId: string; accountId: string },
  options: { random?: () => number; sentPages?: { size: number; max: number } } = {},
): Promise<ReconcileReport> {
  const report: ReconcileReport = { confirmed: 0, requeued: 0, failed: 0, waiting: 0, retryAtMs: null };
  const [account] = await ctx.db
    .select()
    .from(redditAccounts)
    .where(and(eq(redditAccounts.id, target.accountId), eq(redditAccounts.projectId, target.projectId)));
  if (!account) return report;
  const dms = (await unknownDmsOf(ctx.db, account.id)).filter((d) => d.projectId === target.projectId);
  if (dms.length === 0) return report;
  const nowMs = ctx.clock.now();
  const later = (at: number) => {
    report.waiting++;
    report.retryAtMs = report.retryAtMs === null ? at : Math.min(report.retryAtMs, at);
  };

  const oldest = Math.min(...dms.map((d) => d.claimedAt?.getTime() ?? nowMs)) - CLOCK_SKEW_MS;
  let read: { sent: TRedditMessage[]; complete: boolean };
  try {
    const pages = options.sentPages ?? { size: SENT_PAGE_SIZE, max: MAX_SENT_PAGES };
    read = await asAccount(ctx, account, (api) => readSentSince(api, oldest, pages), {
      wait: false,
      attempt: 1,
    });
  } catch (error) {
    const retryAtMs = retryAtOf(error);
    if (retryAtMs === null && !(error instanceof AccountAuthRequiredError)) throw error;
    // A spent budget or Reddit out of reach: later. No grant: soon after the account signs in again,
    // which only the customer can do: each DM says so instead of that its check is under way.
    if (error instanceof AccountAuthRequiredError) {
      for (const dm of dms) {
        const reason = waitingForSignIn(account.redditUsername, dm.recipientUsername);
        if (dm.outcomeReason === reason) continue;
        await updateDm(
          ctx.db,
          { projectId: dm.projectId, dmId: dm.id, from: ['unknown'], claimedAt: dm.claimedAt! },
          { outcomeReason: reason, updatedAt: new Date(nowMs) },
        );
      }
    }
    report.waiting = dms.length;
    report.retryAtMs = retryAtMs ?? nowMs + SIGNED_OUT_LOOK_AGAIN_MS;
    return report;
  }
  const { sent, complete } = read;

  const used = new Set<string>();
  const now = new Date(nowMs);
  for (const dm of dms) {
    const found = sent.find((m) => !used.has(m.name) && matches(dm, m));
    const guard = {
      projectId: dm.projectId,
      dmId: dm.id,
      from: ['unknown' as const],
      claimedAt: dm.claimedAt!,
    };
    if (found) used.add(found.name);
    // Found in the sent messages, or answered by its recipient (whatever those show): it arrived.
    const arrived = found
      ? { at: new Date(found.created_utc * 1000), how: 'confirmed in its sent messages' }
      : dm.repliedAt
        ? { at: dm.claimedAt, how: 'its recipient replied' }
        : null;
    if (arrived) {
      const row = await updateDm(ctx.db, guard, {
        state: 'sent',
        sentAt: arrived.at,
        outcomeCode: 'sent',
        outcomeReason: `Sent from u/${account.redditUsername} (${arrived.how})`,
        updatedAt: now,
      });
      if (row) report.confirmed++;
      continue;
    }
    const decidedAt = (dm.claimedAt?.getTime() ?? nowMs) + NOT_DELIVERED_AFTER_MS;
    if (!complete || nowMs < decidedAt) {
      later(complete ? decidedAt : nowMs + LOOK_AGAIN_MS);
      // Signed in again: the check is under way, no longer waiting for the customer.
      if (dm.outcomeReason === waitingForSignIn(account.redditUsername, dm.recipientUsername)) {
        await updateDm(ctx.db, guard, {
          outcomeReason: `Reddit did not confirm the DM; checking u/${account.redditUsername}'s sent messages before anything is sent again`,
          updatedAt: now,
        });
      }
    } else if (dm.attempts >= MAX_SEND_ATTEMPTS) {
      const row = await updateDm(ctx.db, guard, {
        state: 'failed',
        failedAt: now,
        outcomeCode: 'not_delivered',
        outcomeReason: 'not delivered',
        updatedAt: now,
      });
      if (row) report.failed++;
    } else {
      // Not delivered: the recipient is free again (the unique index no longer holds them), so it is safe
      // to send once more, on the same account when it can.
      const row = await updateDm(ctx.db, guard, {
        state: 'queued',
        claimedAt: null,
        senderKey: null,
        scheduledFor: now,
        outcomeCode: 'not_delivered',
        outcomeReason: 'not delivered; queued to be sent again',
        updatedAt: now,
      });
      if (row) {
        report.requeued++;
        await rescheduleDm(
          ctx,
          { projectId: dm.projectId, dmId: dm.id },
          { random: options.random ?? Math.random },
        );
      }
    }
  }
  return report;
}

/** The account's sent messages back to `sinceMs`, or as far as `pages.max` pages reach. */
async function readSentSince(
  api: RedditApi,
  sinceMs: number,
  pages: { size: number; max: number },
): Promise<{ sent: TRedditMessage[]; complete: boolean }> {
  const sent: TRedditMessage[] = [];
  let after: string | null = null;
  for (let page = 0; page < pages.max; page++) {
    const listing = await api.sent({ limit: pages.size, after });
    const items = listing.data.children.map((c) => c.data);
    sent.push(...items);
    const reachedStart = items.some((m) => m.created_utc * 1000 < sinceMs);
    if (items.length === 0 || reachedStart || !listing.data.after) return { sent, complete: true };
    after = listing.data.after;
  }
  return { sent, complete: false };
}

export interface SweepReport {
  /** Claims of processes that ended mid-send, now unknown. */
  interrupted: number;
  /** Accounts with DMs of unknown outcome to reconcile. */
  accounts: { projectId: string; accountId: string }[];
  /** Queued DMs whose job is overdue. */
  overdue: { projectId: string; dmId: string }[];
}

/**
 * What recovery has to do, found in the database: claims left `sending` by a process that ended become
 * unknown; accounts with unknown DMs need reconciling; queued DMs long overdue need their job again.
 */
export async function sweepSends(ctx: AppContext): Promise<SweepReport> {
  const nowMs = ctx.clock.now();
  const interrupted = await markInterruptedSends(
    ctx.db,
    new Date(nowMs - INTERRUPTED_AFTER_MS),
    new Date(nowMs),
    "The send was interrupted before its result was recorded; checking the account's sent messages before anything is sent again",
  );
  const accounts = await accountsWithUnknownDms(ctx.db);
  const overdue = await overdueQueuedDms(ctx.db, new Date(nowMs - OVERDUE_AFTER_MS), 500);
  return {
    interrupted: interrupted.length,
    accounts,
    overdue: overdue.map((d) => ({ projectId: d.projectId, dmId: d.id })),
  };
}
