import { fromBase36, hash, hashString, pick, toBase36, unit } from '../random';
import type { RedditComment, RedditPost, RedditSubreddit } from '../types';
import {
  ASK_BODIES,
  ASK_CLOSERS,
  ASK_COMMENTS,
  ASK_TITLES,
  DISCUSSION_CLOSERS,
  GENERIC_COMMENTS,
} from './phrases';
import { TOPICS, type TopicDef } from './topics';
import { GENERATED_USERS, type SimUser, UserPool } from './users';

const DAY_MS = 86_400_000;
/** Reddit never serves a listing deeper than this. */
export const LISTING_CAP = 1000;
const TEXT_CACHE_SIZE = 25_000;
const POST_ID_BASE = 36 ** 6;
const COMMENT_ID_BASE = 36 ** 7;

export interface SimSubreddit {
  index: number;
  id: string;
  name: string;
  title: string;
  description: string;
  subscribers: number;
  topic: TopicDef;
  createdMs: number;
  postIntervalMs: number;
  postPhaseMs: number;
  commentIntervalMs: number;
  commentPhaseMs: number;
}

/** A post or comment reduced to what ordering and filtering need; text is generated only for served items. */
export interface Stub {
  kind: 't1' | 't3';
  sub: number;
  k: number;
  time: number;
}

const DISCUSSION_TITLES = [
  '{title}',
  '{title}',
  '{title}',
  'How do you {task}?',
  'Struggling to {task}',
  'What is your process to {task}?',
  'Tips to {task} {context}?',
  'Rant: why is it so hard to {task}?',
];

export class Corpus {
  readonly subreddits: SimSubreddit[];
  readonly users: UserPool;
  private readonly subByName = new Map<string, SimSubreddit>();
  private readonly textCache = new Map<number, { title: string; selftext: string }>();

  constructor(
    readonly seed: number,
    anchorMs: number,
  ) {
    this.users = new UserPool(seed, anchorMs);
    this.subreddits = [];
    for (const topic of TOPICS) {
      for (const line of topic.subs) {
        const [name = '', title = '', description = '', members] = line.split('|');
        const index = this.subreddits.length;
        const subscribers = members
          ? Number(members)
          : 1500 + Math.floor(unit(seed, index, 11) ** 2 * 180_000);
        const postsPerDay = Math.min(480, Math.max(8, Math.round(subscribers / 5000)));
        const commentsPerDay = Math.min(1500, postsPerDay * 4);
        const postIntervalMs = Math.floor(DAY_MS / postsPerDay);
        const commentIntervalMs = Math.floor(DAY_MS / commentsPerDay);
        const sub: SimSubreddit = {
          index,
          id: toBase36(4_500_000 + index * 97 + (hash(seed, index, 12) % 97)),
          name,
          title,
          description,
          subscribers,
          topic,
          createdMs: Date.UTC(2008, 0, 1) + Math.floor(unit(seed, index, 13) * 14 * 365 * DAY_MS),
          postIntervalMs,
          postPhaseMs: Math.floor(unit(seed, index, 14) * postIntervalMs),
          commentIntervalMs,
          commentPhaseMs: Math.floor(unit(seed, index, 15) * commentIntervalMs),
        };
        this.subreddits.push(sub);
        this.subByName.set(name.toLowerCase(), sub);
      }
    }
  }

  topicCount(): number {
    return new Set(this.subreddits.map((s) => s.topic.id)).size;
  }

  subreddit(name: string): SimSubreddit | undefined {
    return this.subByName.get(name.toLowerCase());
  }

  private sub(index: number): SimSubreddit {
    const sub = this.subreddits[index];
    if (!sub) throw new Error(`no subreddit ${index}`);
    return sub;
  }

  // ---- timing -------------------------------------------------------------------------------

  /** Items of a stream arrive one per interval, jittered inside the interval so order stays monotonic. */
  itemTime(kind: 't1' | 't3', sub: number, k: number): number {
    const s = this.sub(sub);
    const [interval, phase] =
      kind === 't3' ? [s.postIntervalMs, s.postPhaseMs] : [s.commentIntervalMs, s.commentPhaseMs];
    return (
      phase + k * interval + Math.floor(unit(this.seed, sub, k, kind === 't3' ? 21 : 22) * interval * 0.8)
    );
  }

  latestIndex(kind: 't1' | 't3', sub: number, now: number): number {
    const s = this.sub(sub);
    const [interval, phase] =
      kind === 't3' ? [s.postIntervalMs, s.postPhaseMs] : [s.commentIntervalMs, s.commentPhaseMs];
    let k = Math.floor((now - phase) / interval);
    if (k >= 0 && this.itemTime(kind, sub, k) > now) k--;
    return k;
  }

  /** Newest-first stubs of one subreddit, at most `depth` deep. */
  stubs(kind: 't1' | 't3', sub: number, now: number, depth = LISTING_CAP): Stub[] {
    const out: Stub[] = [];
    const latest = this.latestIndex(kind, sub, now);
    for (let k = latest; k >= 0 && out.length < depth; k--) {
      out.push({ kind, sub, k, time: this.itemTime(kind, sub, k) });
    }
    return out;
  }

  /** Newest-first merge over several subreddits (multireddits, r/all). */
  mergedStubs(kind: 't1' | 't3', subs: number[], now: number, depth = LISTING_CAP): Stub[] {
    if (subs.length === 1) return this.stubs(kind, subs[0] ?? 0, now, depth);
    // Only look back as far as the combined arrival rate says `depth` items need, widening if that was short.
    const perMs = subs.reduce((sum, s) => sum + 1 / this.interval(kind, s), 0);
    let span = (depth / perMs) * 1.2 + 1;
    for (;;) {
      const cutoff = now - span;
      const all: Stub[] = [];
      let truncated = false;
      for (const sub of subs) {
        const latest = this.latestIndex(kind, sub, now);
        for (let k = latest, n = 0; k >= 0 && n < depth; k--, n++) {
          const time = this.itemTime(kind, sub, k);
          if (time < cutoff) {
            truncated = true;
            break;
          }
          all.push({ kind, sub, k, time });
        }
      }
      if (all.length >= depth || !truncated) {
        all.sort(compareStubs);
        return all.slice(0, depth);
      }
      span *= 2;
    }
  }

  private interval(kind: 't1' | 't3', sub: number): number {
    const s = this.sub(sub);
    return kind === 't3' ? s.postIntervalMs : s.commentIntervalMs;
  }

  // ---- ids ----------------------------------------------------------------------------------

  stubId(stub: Stub): string {
    const base = stub.kind === 't3' ? POST_ID_BASE : COMMENT_ID_BASE;
    return toBase36(base + stub.k * this.subreddits.length + stub.sub);
  }

  fullname(stub: Stub): string {
    return `${stub.kind}_${this.stubId(stub)}`;
  }

  /** Decodes a fullname back into its item; undefined when it names nothing that exists at `now`. */
  parseFullname(fullname: string, now: number): Stub | undefined {
    const match = /^(t1|t3)_([0-9a-z]+)$/.exec(fullname);
    if (!match) return undefined;
    const kind = match[1] as 't1' | 't3';
    const n = fromBase36(match[2] ?? '');
    if (n === undefined) return undefined;
    const rest = n - (kind === 't3' ? POST_ID_BASE : COMMENT_ID_BASE);
    if (rest < 0) return undefined;
    const count = this.subreddits.length;
    const stub: Stub = { kind, sub: rest % count, k: Math.floor(rest / count), time: 0 };
    stub.time = this.itemTime(kind, stub.sub, stub.k);
    return stub.time <= now ? stub : undefined;
  }

  // ---- authors ------------------------------------------------------------------------------

  authorIndex(stub: Stub): number {
    return hash(this.seed, stub.sub, stub.k, stub.kind === 't3' ? 31 : 32) % GENERATED_USERS;
  }

  author(stub: Stub): SimUser {
    return this.users.at(this.authorIndex(stub));
  }

  // ---- posts --------------------------------------------------------------------------------

  isAsk(stub: Stub): boolean {
    return unit(this.seed, stub.sub, stub.k, stub.kind === 't3' ? 41 : 42) < (stub.kind === 't3' ? 0.2 : 0.1);
  }

  postText(stub: Stub): { title: string; selftext: string } {
    const key = stub.k * this.subreddits.length + stub.sub;
    const cached = this.textCache.get(key);
    if (cached) return cached;
    const text = this.composePostText(stub);
    // Bounded so repeated searches stay fast without memory growing with uptime.
    if (this.textCache.size >= TEXT_CACHE_SIZE) {
      const oldest = this.textCache.keys().next();
      if (!oldest.done) this.textCache.delete(oldest.value);
    }
    this.textCache.set(key, text);
    return text;
  }

  private composePostText(stub: Stub): { title: string; selftext: string } {
    const { topic } = this.sub(stub.sub);
    const r = (salt: number) => hash(this.seed, stub.sub, stub.k, 100 + salt);
    const vars = {
      thing: pick(topic.things, r(1)),
      task: pick(topic.tasks, r(2)),
      context: pick(topic.contexts, r(3)),
      title: pick(topic.titles, r(4)),
    };
    const statement1 = pick(topic.statements, r(5));
    const statement2 = pick(topic.statements, r(6));
    const second = statement2 !== statement1 && r(7) % 2 === 0 ? ` ${statement2}` : '';
    if (this.isAsk(stub)) {
      const title = fill(pick(ASK_TITLES, r(8)), vars);
      const body = fill(pick(ASK_BODIES, r(9)), vars);
      const closer = pick(ASK_CLOSERS, r(10));
      return { title, selftext: joinText([`${statement1}${second}`, body, closer]) };
    }
    const title = fill(pick(DISCUSSION_TITLES, r(11)), vars);
    const closer = pick(DISCUSSION_CLOSERS, r(12));
    return { title, selftext: joinText([`${statement1}${second}`, closer]) };
  }

  post(stub: Stub, now: number): RedditPost {
    const sub = this.sub(stub.sub);
    const id = this.stubId(stub);
    const author = this.author(stub);
    const { title, selftext } = this.postText(stub);
    const ageMs = Math.max(0, now - stub.time);
    const ask = this.isAsk(stub);
    const finalScore = Math.floor(Math.exp(unit(this.seed, stub.sub, stub.k, 51) * (ask ? 4 : 7)));
    const score = Math.max(1, Math.round(finalScore * Math.min(1, ageMs / (12 * 3600_000))));
    const finalComments = Math.floor(unit(this.seed, stub.sub, stub.k, 52) ** 2 * (ask ? 25 : 90));
    const numComments = Math.round(finalComments * Math.min(1, ageMs / DAY_MS));
    const slug = slugify(title);
    const permalink = `/r/${sub.name}/comments/${id}/${slug}/`;
    const created = Math.floor(stub.time / 1000);
    return {
      id,
      name: `t3_${id}`,
      title,
      selftext,
      author: author.name,
      author_fullname: `t2_${author.id}`,
      subreddit: sub.name,
      subreddit_id: `t5_${sub.id}`,
      subreddit_name_prefixed: `r/${sub.name}`,
      subreddit_subscribers: sub.subscribers,
      subreddit_type: 'public',
      score,
      ups: score,
      downs: 0,
      upvote_ratio: Math.round((0.6 + unit(this.seed, stub.sub, stub.k, 53) * 0.39) * 100) / 100,
      num_comments: numComments,
      created,
      created_utc: created,
      permalink,
      url: `https://www.reddit.com${permalink}`,
      domain: `self.${sub.name}`,
      is_self: true,
      over_18: false,
      stickied: false,
      locked: false,
      archived: ageMs > 180 * DAY_MS,
      edited: false,
      distinguished: null,
      link_flair_text: null,
      thumbnail: 'self',
    };
  }

  // ---- comments -----------------------------------------------------------------------------

  /** The post a comment belongs to: a recent post of the same subreddit, older than the comment. */
  commentPost(stub: Stub): Stub {
    const latest = this.latestIndex('t3', stub.sub, stub.time);
    const back = Math.floor(unit(this.seed, stub.sub, stub.k, 33) ** 2 * 40);
    const k = Math.max(0, latest - back);
    return { kind: 't3', sub: stub.sub, k, time: this.itemTime('t3', stub.sub, k) };
  }

  commentBody(stub: Stub): string {
    const { topic } = this.sub(stub.sub);
    const r = (salt: number) => hash(this.seed, stub.sub, stub.k, 200 + salt);
    const vars = {
      thing: pick(topic.things, r(1)),
      task: pick(topic.tasks, r(2)),
      context: pick(topic.contexts, r(3)),
      title: '',
    };
    if (this.isAsk(stub)) return fill(pick(ASK_COMMENTS, r(4)), vars);
    const first = r(5) % 10 < 6 ? fill(pick(topic.comments, r(6)), vars) : pick(GENERIC_COMMENTS, r(7));
    if (r(8) % 3 === 0) return `${first} ${fill(pick(topic.statements, r(9)), vars)}`;
    return first;
  }

  comment(stub: Stub, now: number): RedditComment {
    const sub = this.sub(stub.sub);
    const id = this.stubId(stub);
    const author = this.author(stub);
    const postStub = this.commentPost(stub);
    const postId = this.stubId(postStub);
    const postAuthor = this.author(postStub);
    const { title } = this.postText(postStub);
    const linkPermalink = `/r/${sub.name}/comments/${postId}/${slugify(title)}/`;
    const ageMs = Math.max(0, now - stub.time);
    const finalScore = Math.floor(Math.exp(unit(this.seed, stub.sub, stub.k, 54) * 5));
    const score = Math.max(1, Math.round(finalScore * Math.min(1, ageMs / (6 * 3600_000))));
    const created = Math.floor(stub.time / 1000);
    return {
      id,
      name: `t1_${id}`,
      body: this.commentBody(stub),
      author: author.name,
      author_fullname: `t2_${author.id}`,
      subreddit: sub.name,
      subreddit_id: `t5_${sub.id}`,
      subreddit_name_prefixed: `r/${sub.name}`,
      link_id: `t3_${postId}`,
      link_title: title,
      link_author: postAuthor.name,
      link_permalink: `https://www.reddit.com${linkPermalink}`,
      parent_id: `t3_${postId}`,
      score,
      ups: score,
      downs: 0,
      created,
      created_utc: created,
      permalink: `${linkPermalink}${id}/`,
      is_submitter: author.index === postAuthor.index,
      edited: false,
      distinguished: null,
      stickied: false,
      replies: '',
    };
  }

  // ---- subreddits ---------------------------------------------------------------------------

  about(sub: SimSubreddit, now: number): RedditSubreddit {
    const created = Math.floor(sub.createdMs / 1000);
    const hour = Math.floor(now / 3600_000);
    return {
      id: sub.id,
      name: `t5_${sub.id}`,
      display_name: sub.name,
      display_name_prefixed: `r/${sub.name}`,
      title: sub.title,
      public_description: sub.description,
      description: `${sub.description}\n\nTopic: ${sub.topic.label}. Be kind, no spam, no self-promotion outside the weekly thread.`,
      subscribers: sub.subscribers,
      active_user_count: Math.max(
        3,
        Math.floor(sub.subscribers * (0.0005 + unit(this.seed, sub.index, hour) * 0.001)),
      ),
      over18: false,
      created,
      created_utc: created,
      url: `/r/${sub.name}/`,
      subreddit_type: 'public',
      lang: 'en',
    };
  }

  searchSubreddits(query: string): SimSubreddit[] {
    const terms = query.toLowerCase().split(/\s+/).filter(Boolean);
    if (terms.length === 0) return [];
    return this.subreddits
      .filter((s) => {
        const text = `${s.name} ${s.title} ${s.description} ${s.topic.label}`.toLowerCase();
        return terms.every((t) => text.includes(t));
      })
      .sort((a, b) => b.subscribers - a.subscribers);
  }

  /** Stable per-name hash used where an item needs a deterministic choice tied to a name. */
  nameHash(name: string): number {
    return hash(this.seed, hashString(name.toLowerCase()));
  }
}

export function compareStubs(a: Stub, b: Stub): number {
  return b.time - a.time || b.sub - a.sub || b.k - a.k;
}

type Vars = { thing: string; task: string; context: string; title: string };

function article(word: string): string {
  return /^[aeiou]/i.test(word) ? 'an' : 'a';
}

export function fill(template: string, vars: Vars): string {
  return template
    .replace(/\ba \{thing\}/g, `${article(vars.thing)} ${vars.thing}`)
    .replace(/\{thing\}/g, vars.thing)
    .replace(/\{task\}/g, vars.task)
    .replace(/\{context\}/g, vars.context)
    .replace(/\{title\}/g, vars.title)
    .replace(/\s+([?.,!])/g, '$1');
}

function joinText(parts: string[]): string {
  return parts.filter(Boolean).join('\n\n');
}

function slugify(title: string): string {
  return (
    title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .split('_')
      .slice(0, 9)
      .join('_') || 'post'
  );
}
