import type { TRedditMessageListing, TRedditMessageThing } from '../../integrations/reddit';

/** Chat-era conversations show this subject on every message (replies may add `re: `). */
export const CHAT_SUBJECT = '[direct chat room]';

/**
 * Reddit stamps a message when it stores it, by its clock; we stamp a DM sent when compose answered,
 * by ours. A message older than our send time by more than this (the clocks' drift) cannot answer it.
 */
export const SEND_TIME_SLACK_MS = 60_000;

/** One message of an inbox page, with nested conversation replies taken out of their thread. */
export interface InboxMessage {
  name: string;
  kind: 't4' | 't1';
  author: string | null;
  dest: string;
  subject: string;
  body: string;
  createdMs: number;
  /** The conversation's first message, or null when this is it. */
  firstMessageName: string | null;
  parentId: string | null;
  wasComment: boolean;
  distinguished: string | null;
  isNew: boolean;
}

/** A DM this account sent, as the matcher needs it. */
export interface SentDm {
  id: string;
  /** lower(recipient name). */
  recipientKey: string;
  subject: string;
  sentAtMs: number;
}

/** How a message was tied to our DM (docs/decisions/023). */
export type ReplyEvidence = 'thread' | 'subject' | 'chat';

export interface ReplyMatch {
  dm: SentDm;
  message: InboxMessage;
  evidence: ReplyEvidence;
}

function toMessage(thing: TRedditMessageThing): InboxMessage {
  const m = thing.data;
  return {
    name: m.name,
    kind: thing.kind,
    author: m.author,
    dest: m.dest,
    subject: m.subject,
    body: m.body,
    createdMs: Math.round(m.created_utc * 1000),
    firstMessageName: m.first_message_name,
    parentId: m.parent_id,
    wasComment: m.was_comment,
    distinguished: m.distinguished,
    isNew: m.new,
  };
}

/**
 * Every message of a listing page: each item, then the later messages of its conversation that
 * threaded boxes nest in `replies` (chat-era inboxes and /message/messages do).
 */
export function inboxMessages(listing: TRedditMessageListing): InboxMessage[] {
  const out: InboxMessage[] = [];
  for (const thing of listing.data.children) {
    out.push(toMessage(thing));
    const replies = thing.data.replies;
    if (replies !== '') for (const nested of replies.data.children) out.push(toMessage(nested));
  }
  return out;
}

const rootOf = (m: InboxMessage) => m.firstMessageName ?? m.name;

/** A subject without its `re: ` prefixes, in lower case with single spaces. */
export function baseSubject(subject: string): string {
  return subject
    .trim()
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/^(re: ?)+/, '');
}

/**
 * The messages that answer one of our DMs. A message answers the DM to its author when it is a private
 * message (not a comment reply, not from Reddit or a moderator, not ours) and one of these ties it to
 * the DM:
 * - thread: its conversation (`first_message_name`, or its own name at the root) holds an earlier
 *   message from us to its author among what was read (threaded boxes show our own messages);
 * - subject: it sits in a conversation (`first_message_name` set) under our subject, `re: <subject>`;
 * - chat: it has the chat-era subject; there is one chat room per pair of people, so it is our DM's.
 * And it is not older than the DM. Our DM's own fullname is never needed: compose
 * does not return it, and one DM per person per workspace makes author and account name the DM.
 */
export function matchReplies(
  messages: InboxMessage[],
  me: string,
  dms: ReadonlyMap<string, SentDm>,
): ReplyMatch[] {
  const self = me.toLowerCase();
  // Per conversation: when we first wrote to each person in it.
  const ours = new Map<string, Map<string, number>>();
  for (const m of messages) {
    if (m.author?.toLowerCase() !== self) continue;
    const root = rootOf(m);
    const firsts = ours.get(root) ?? new Map<string, number>();
    const dest = m.dest.toLowerCase();
    firsts.set(dest, Math.min(firsts.get(dest) ?? Infinity, m.createdMs));
    ours.set(root, firsts);
  }
  const matches: ReplyMatch[] = [];
  const seen = new Set<string>();
  for (const m of messages) {
    if (seen.has(m.name)) continue;
    seen.add(m.name);
    if (m.kind !== 't4' || m.wasComment || m.distinguished || !m.author) continue;
    const author = m.author.toLowerCase();
    if (author === self) continue;
    const dm = dms.get(author);
    if (!dm) continue;
    const evidence = evidenceFor(m, dm, ours.get(rootOf(m))?.get(author));
    if (evidence) matches.push({ dm, message: m, evidence });
  }
  return matches;
}

function evidenceFor(
  m: InboxMessage,
  dm: SentDm,
  ourFirstInThread: number | undefined,
): ReplyEvidence | null {
  if (m.createdMs < dm.sentAtMs - SEND_TIME_SLACK_MS) return null;
  if (ourFirstInThread !== undefined && m.createdMs > ourFirstInThread) return 'thread';
  const subject = baseSubject(m.subject);
  if (subject === CHAT_SUBJECT) return 'chat';
  if (m.firstMessageName !== null && subject === baseSubject(dm.subject)) return 'subject';
  return null;
}
