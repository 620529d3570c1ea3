import type { Corpus } from './corpus/corpus';
import { INTERESTED_REPLIES, NEUTRAL_REPLIES, STOP_REPLIES } from './corpus/phrases';
import type { SimUser } from './corpus/users';
import { type RouteContext, type SimResponse, json, redditError } from './http';
import { listing, paginate, pageParams } from './listings';
import { hash, hashString, pick, toBase36, unit } from './random';
import type { RedditMessage } from './types';

const MESSAGE_ID_BASE = 2_400_000_000;
const HOUR_MS = 3600_000;
const DAY_MS = 86_400_000;

export type ReplyKind = 'stop' | 'interested' | 'neutral';

/** How messages look on the wire: classic private messages, or chat-era ones (see RedditSimOptions). */
export type MessageStyle = 'classic' | 'chat';

/** The subject Reddit shows for every message of a chat conversation. */
export const CHAT_SUBJECT = '[direct chat room]';

export interface StoredMessage {
  id: string;
  name: string;
  from: string;
  to: string;
  subject: string;
  body: string;
  createdMs: number;
  /** Client that sent it; undefined for simulated replies. */
  clientId?: string;
  firstMessageName: string | null;
  parentName: string | null;
  /** Set on simulated replies. */
  replyKind?: ReplyKind;
  read: boolean;
}

/** Compose budget per sender, per rolling hour: new or low-karma accounts get very little. */
export const COMPOSE_LIMIT_ESTABLISHED = 60;
export const COMPOSE_LIMIT_NEW = 2;

export class Messages {
  private readonly all: StoredMessage[] = [];
  private seq = 0;

  constructor(
    private readonly corpus: Corpus,
    private readonly style: MessageStyle = 'classic',
  ) {}

  /** Composes received by the simulator (not the simulated replies). */
  composed(): StoredMessage[] {
    return this.all.filter((m) => m.replyKind === undefined);
  }

  /** Simulated replies, including ones not yet delivered (createdMs in the future). */
  replies(): StoredMessage[] {
    return this.all.filter((m) => m.replyKind !== undefined);
  }

  clear(): void {
    this.all.length = 0;
  }

  compose(ctx: RouteContext, sender: SimUser): SimResponse {
    if (sender.suspended) return redditError(403);
    const to = (ctx.form.get('to') ?? '').trim().replace(/^\/?u(ser)?\//i, '');
    const subject = (ctx.form.get('subject') ?? '').trim();
    const text = ctx.form.get('text') ?? '';
    if (!to) return composeError('NO_USER', 'please enter a username', 'to');
    if (!subject) return composeError('NO_SUBJECT', 'please enter a subject', 'subject');
    if (subject.length > 100) return composeError('TOO_LONG', 'this is too long (max: 100)', 'subject');
    if (!text.trim()) return composeError('NO_TEXT', 'we need something here', 'text');
    if (text.length > 10_000) return composeError('TOO_LONG', 'this is too long (max: 10000)', 'text');

    const recipient = this.corpus.users.get(to);
    // Reddit answers the same way for accounts that never existed, were deleted, or are suspended.
    if (!recipient || recipient.deleted || recipient.suspended) {
      return composeError('USER_DOESNT_EXIST', "that user doesn't exist", 'to');
    }
    if (recipient.refusesDms) {
      return composeError('NOT_WHITELISTED_BY_USER_MESSAGE', "you can't send a message to that user", 'to');
    }
    const wait = this.composeWaitMs(sender, ctx.now);
    if (wait > 0) {
      const minutes = Math.ceil(wait / 60_000);
      const body = {
        json: {
          ratelimit: Math.ceil(wait / 1000),
          errors: [
            [
              'RATELIMIT',
              `you are doing that too much. try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
              'ratelimit',
            ],
          ],
        },
      };
      return json(200, body);
    }

    const message = this.store({
      from: sender.name,
      to: recipient.name,
      subject,
      body: text,
      createdMs: ctx.now,
      clientId: ctx.clientId,
      firstMessageName: null,
      parentName: null,
    });
    if (!recipient.loginable) this.scheduleReply(message, recipient);
    return json(200, { json: { errors: [], data: {} } });
  }

  private composeWaitMs(sender: SimUser, now: number): number {
    const established = now - sender.createdMs >= 7 * DAY_MS && sender.linkKarma + sender.commentKarma >= 50;
    const limit = established ? COMPOSE_LIMIT_ESTABLISHED : COMPOSE_LIMIT_NEW;
    const recent = this.all.filter(
      (m) => m.from === sender.name && m.replyKind === undefined && m.createdMs > now - HOUR_MS,
    );
    if (recent.length < limit) return 0;
    const oldest = recent[recent.length - limit];
    return oldest ? oldest.createdMs + HOUR_MS - now : 0;
  }

  /** Whether and how a recipient answers depends only on the seed, the pair, and how many DMs came before. */
  private scheduleReply(original: StoredMessage, recipient: SimUser): void {
    const nth = this.all.filter((m) => m.from === original.from && m.to === original.to).length;
    const h = hash(this.corpus.seed, recipient.index, hashString(original.from.toLowerCase()), nth);
    const roll = (h % 1000) / 1000;
    let kind: ReplyKind;
    if (roll < 0.35) return;
    else if (roll < 0.55) kind = 'stop';
    else if (roll < 0.85) kind = 'interested';
    else kind = 'neutral';
    const bank =
      kind === 'stop' ? STOP_REPLIES : kind === 'interested' ? INTERESTED_REPLIES : NEUTRAL_REPLIES;
    const delay = 3 * 60_000 + Math.floor(unit(h, 2) ** 2 * 6 * HOUR_MS);
    this.store({
      from: recipient.name,
      to: original.from,
      subject: `re: ${original.subject}`,
      body: pick(bank, hash(h, 3)),
      createdMs: original.createdMs + delay,
      firstMessageName: original.name,
      parentName: original.name,
      replyKind: kind,
    });
  }

  /**
   * `from` answers the newest message `to` sent them, at `now`: the answer the simulation had planned
   * for later comes now instead (one answer per message either way), or a new one of `kind`.
   */
  answerNow(
    from: string,
    to: string,
    now: number,
    answer: { kind?: ReplyKind; body?: string } = {},
  ): StoredMessage | null {
    const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
    const original = this.composed()
      .filter((m) => same(m.from, to) && same(m.to, from) && m.createdMs <= now)
      .sort(newestFirst)[0];
    if (!original) return null;
    const planned = this.all.findIndex((m) => m.parentName === original.name && m.replyKind !== undefined);
    if (planned >= 0) this.all.splice(planned, 1);
    const kind = answer.kind ?? 'interested';
    const bank =
      kind === 'stop' ? STOP_REPLIES : kind === 'interested' ? INTERESTED_REPLIES : NEUTRAL_REPLIES;
    return this.store({
      from: original.to,
      to: original.from,
      subject: `re: ${original.subject}`,
      body: answer.body ?? pick(bank, hashString(original.name)),
      createdMs: now,
      firstMessageName: original.name,
      parentName: original.name,
      replyKind: kind,
    });
  }

  private store(m: Omit<StoredMessage, 'id' | 'name' | 'read'>): StoredMessage {
    const id = toBase36(MESSAGE_ID_BASE + this.seq++);
    const message: StoredMessage = { ...m, id, name: `t4_${id}`, read: false };
    this.all.push(message);
    return message;
  }

  list(ctx: RouteContext, user: SimUser, box: 'inbox' | 'messages' | 'sent' | 'unread'): SimResponse {
    const me = user.name;
    const delivered = this.all.filter((m) => m.createdMs <= ctx.now);
    const mark = box !== 'sent' && ctx.query.get('mark') === 'true';
    if (this.style === 'chat' && (box === 'inbox' || box === 'messages')) {
      return this.listThreads(ctx, me, delivered, { mark, withUnanswered: box === 'messages' });
    }
    const items = delivered
      .filter((m) => (box === 'sent' ? m.from === me : m.to === me && (box !== 'unread' || !m.read)))
      .sort(newestFirst);
    const { page, after, before } = paginate(items, (m) => m.name, pageParams(ctx.query));
    const data = page.map((m) => this.toRedditMessage(m, box !== 'sent' && !m.read));
    if (mark) for (const m of page) m.read = true;
    return json(200, listing('t4', data, after, before));
  }

  /**
   * Conversations, newest activity first: each is its first message, with the later ones (oldest first)
   * in `replies`, as Reddit threads its boxes. The inbox holds those the user received something in;
   * `/message/messages` also the user's own messages nobody answered yet.
   */
  private listThreads(
    ctx: RouteContext,
    me: string,
    delivered: StoredMessage[],
    { mark, withUnanswered }: { mark: boolean; withUnanswered: boolean },
  ): SimResponse {
    const threads = new Map<string, StoredMessage[]>();
    for (const m of delivered) {
      if (m.from !== me && m.to !== me) continue;
      const root = m.firstMessageName ?? m.name;
      threads.set(root, [...(threads.get(root) ?? []), m]);
    }
    const conversations = [...threads.values()]
      .filter((messages) => withUnanswered || messages.some((m) => m.to === me))
      .map((messages) => messages.sort((a, b) => a.createdMs - b.createdMs || (a.id < b.id ? -1 : 1)))
      .sort((a, b) => newestFirst(a[a.length - 1]!, b[b.length - 1]!));
    const { page, after, before } = paginate(conversations, (t) => t[0]!.name, pageParams(ctx.query));
    const isNew = (m: StoredMessage) => m.to === me && !m.read;
    const data = page.map(([root, ...later]) => ({
      ...this.toRedditMessage(root!, isNew(root!)),
      replies:
        later.length === 0
          ? ('' as const)
          : listing(
              't4',
              later.map((m) => this.toRedditMessage(m, isNew(m))),
              null,
              null,
            ),
    }));
    if (mark) for (const m of page.flat()) if (m.to === me) m.read = true;
    return json(200, listing('t4', data, after, before));
  }

  private toRedditMessage(m: StoredMessage, isNew: boolean): RedditMessage {
    const created = Math.floor(m.createdMs / 1000);
    const chat = this.style === 'chat';
    return {
      id: m.id,
      name: m.name,
      author: m.from,
      dest: m.to,
      subject: chat ? CHAT_SUBJECT : m.subject,
      body: m.body,
      created,
      created_utc: created,
      first_message: m.firstMessageName ? parseInt(m.firstMessageName.slice(3), 36) : null,
      first_message_name: m.firstMessageName,
      parent_id: m.parentName,
      new: isNew,
      was_comment: false,
      subreddit: null,
      context: '',
      distinguished: null,
      ...(chat ? { type: 'unknown' } : {}),
      replies: '',
    };
  }

  /** POST /api/read_message and /api/unread_message: id=t4_a,t4_b */
  mark(ctx: RouteContext, user: SimUser, read: boolean): SimResponse {
    const ids = new Set((ctx.form.get('id') ?? '').split(',').map((s) => s.trim()));
    for (const m of this.all) if (ids.has(m.name) && m.to === user.name) m.read = read;
    return json(200, {});
  }
}

function composeError(code: string, message: string, field: string): SimResponse {
  return json(200, { json: { errors: [[code, message, field]] } });
}

function newestFirst(a: StoredMessage, b: StoredMessage): number {
  return b.createdMs - a.createdMs || (a.id < b.id ? 1 : -1);
}
