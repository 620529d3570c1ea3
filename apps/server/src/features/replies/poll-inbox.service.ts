import type { AppContext } from '../../context';
import type { RedditApi } from '../../integrations/reddit';
import { AccountAuthRequiredError, asAccount, type RedditAccountRow } from '../accounts';
import { suppressRecipient } from '../suppressions';
import {
  inboxMessages,
  matchReplies,
  SEND_TIME_SLACK_MS,
  type InboxMessage,
  type SentDm,
} from './match-replies';
import { isRefusal } from './refusal';
import {
  deliveredDmsTo,
  findAccount,
  insertReply,
  markReplied,
  oldestWatchedSend,
  saveInboxPosition,
  stopUnsentDms,
  type DeliveredDm,
} from './replies.repository';

/** Items per inbox page (Reddit's maximum). */
export const INBOX_PAGE_SIZE = 100;
/** Pages one poll reads at most: a poll every few minutes never gets near this many new items. */
export const MAX_INBOX_PAGES = 5;
/** An account's inbox is watched this long after its last DM went out. */
export const REPLY_WATCH_DAYS = 30;
const DAY_MS = 86_400_000;
/** The part of a refusal kept as the suppression's note. */
const NOTE_QUOTE_LENGTH = 200;

export interface InboxPollReport {
  accountId: string;
  /** Why nothing was read: the account is gone, needs to sign in again, or sent nothing to watch. */
  skipped: 'gone' | 'auth_required' | 'nothing_to_watch' | null;
  pages: number;
  messages: number;
  /** Replies stored by this poll (not seen before). */
  replies: number;
  refusals: number;
  /** Unsent DMs to people who answered, stopped by this poll. */
  stopped: number;
}

interface InboxScan {
  messages: InboxMessage[];
  pages: number;
}

/**
 * Reads the inbox newest first until it meets the newest message the last poll saw (the cursor), a
 * page older than anything we sent, the end, or the page bound. `after` walks back; `before` is not
 * used, because chat-era inboxes list conversations by their first message and move one to the top
 * when it gets an answer, so `before=<that conversation>` would return nothing new.
 */
async function readInbox(api: RedditApi, cursor: string | null, oldestSendMs: number): Promise<InboxScan> {
  const messages: InboxMessage[] = [];
  let after: string | null = null;
  let pages = 0;
  while (pages < MAX_INBOX_PAGES) {
    const listing = await api.inbox({ limit: INBOX_PAGE_SIZE, after });
    pages++;
    const page = inboxMessages(listing);
    messages.push(...page);
    after = listing.data.after;
    const newest = Math.max(...page.map((m) => m.createdMs));
    const reachedCursor = cursor !== null && page.some((m) => m.name === cursor);
    if (reachedCursor || !after || page.length === 0 || newest < oldestSendMs - SEND_TIME_SLACK_MS) break;
  }
  return { messages, pages };
}

/** The newest message read, by Reddit's time: where the next poll may stop. */
function newestName(messages: InboxMessage[]): string | null {
  let newest: InboxMessage | null = null;
  for (const m of messages) if (!newest || m.createdMs > newest.createdMs) newest = m;
  return newest?.name ?? null;
}

function refusalNote(body: string): string {
  const text = body.replace(/\s+/g, ' ').trim();
  const quote = text.length > NOTE_QUOTE_LENGTH ? `${text.slice(0, NOTE_QUOTE_LENGTH - 1)}…` : text;
  return `Replied: "${quote}"`;
}

/**
 * Stores what answers our DMs: each reply once, the DM's replied_at, unsent DMs to that person
 * stopped, and a refusal puts them on the workspace's do-not-contact list for good. One transaction,
 * so a crash repeats a poll but never half-records a reply.
 */
async function recordReplies(
  ctx: AppContext,
  account: RedditAccountRow,
  scan: InboxScan,
  report: InboxPollReport,
): Promise<InboxMessage[]> {
  const me = account.redditUsername.toLowerCase();
  const authors = [
    ...new Set(scan.messages.map((m) => m.author?.toLowerCase()).filter((a): a is string => !!a && a !== me)),
  ];
  const dms = new Map<string, DeliveredDm>();
  for (const dm of await deliveredDmsTo(ctx.db, account, authors)) dms.set(dm.recipientKey, dm);
  const candidates = new Map<string, SentDm>(
    [...dms.values()].map((dm) => [
      dm.recipientKey,
      { id: dm.id, recipientKey: dm.recipientKey, subject: dm.subject, sentAtMs: dm.sentAt.getTime() },
    ]),
  );
  const matches = matchReplies(scan.messages, account.redditUsername, candidates);
  if (matches.length === 0) return [];
  const at = new Date(ctx.clock.now());
  const stored: InboxMessage[] = [];
  await ctx.db.transaction(async (tx) => {
    for (const { dm: matched, message } of matches) {
      const dm = dms.get(matched.recipientKey)!;
      const refusal = isRefusal(message.body);
      const receivedAt = new Date(message.createdMs);
      const inserted = await insertReply(tx, {
        projectId: dm.projectId,
        dmId: dm.id,
        accountId: account.id,
        redditName: message.name,
        author: message.author!,
        body: message.body,
        isRefusal: refusal,
        receivedAt,
        createdAt: at,
      });
      if (!inserted) continue;
      stored.push(message);
      report.replies++;
      await markReplied(tx, dm.id, receivedAt, at);
      report.stopped += await stopUnsentDms(
        tx,
        { id: dm.id, ownerUserId: account.ownerUserId, recipientKey: dm.recipientKey },
        `u/${dm.recipientUsername} replied to an earlier message, so no further message goes to them.`,
        at,
      );
      if (refusal) {
        report.refusals++;
        await suppressRecipient(
          tx,
          account.ownerUserId,
          { username: dm.recipientUsername, reason: 'refusal', note: refusalNote(message.body) },
          at,
        );
      }
    }
  });
  return stored;
}

/**
 * One poll of a connected account's inbox for answers to its DMs. Reddit calls never wait: a spent
 * budget throws with `retryAtMs` and the job runs again then. An account that must sign in again is
 * skipped until it does.
 */
export async function pollInbox(ctx: AppContext, accountId: string): Promise<InboxPollReport> {
  const report: InboxPollReport = {
    accountId,
    skipped: null,
    pages: 0,
    messages: 0,
    replies: 0,
    refusals: 0,
    stopped: 0,
  };
  const account = await findAccount(ctx.db, accountId);
  if (!account) return { ...report, skipped: 'gone' };
  if (!account.isActive || account.authStatus !== 'valid' || !account.credentialId) {
    return { ...report, skipped: 'auth_required' };
  }
  const since = new Date(ctx.clock.now() - REPLY_WATCH_DAYS * DAY_MS);
  const oldestSend = await oldestWatchedSend(ctx.db, account, since);
  if (!oldestSend) return { ...report, skipped: 'nothing_to_watch' };

  try {
    await asAccount(
      ctx,
      account,
      async (api) => {
        const scan = await readInbox(api, account.inboxCursor, oldestSend.getTime());
        report.pages = scan.pages;
        report.messages = scan.messages.length;
        const stored = await recordReplies(ctx, account, scan, report);
        await markAnswersRead(ctx, api, account, stored);
        await saveInboxPosition(
          ctx.db,
          account.id,
          newestName(scan.messages) ?? account.inboxCursor,
          new Date(ctx.clock.now()),
        );
      },
      { wait: false },
    );
  } catch (error) {
    if (error instanceof AccountAuthRequiredError) return { ...report, skipped: 'auth_required' };
    throw error;
  }
  return report;
}

/** Best effort: the answers we recorded stop showing as new in Reddit; a failure changes nothing. */
async function markAnswersRead(
  ctx: AppContext,
  api: RedditApi,
  account: RedditAccountRow,
  stored: InboxMessage[],
): Promise<void> {
  const unread = stored.filter((m) => m.isNew).map((m) => m.name);
  if (unread.length === 0) return;
  try {
    await api.markRead(unread);
  } catch (err) {
    ctx.log.warn({ err, accountId: account.id }, 'could not mark replies read');
  }
}
