import type { AppContext } from '../../context';
import {
  RedditBudgetExhaustedError,
  RedditUnavailableError,
  type RedditApi,
  type TRedditComment,
  type TRedditPost,
} from '../../integrations/reddit';
import { redditClientsOfType } from '../credentials';
import type { StreamKind } from './discovery.repository';
import type { MatchableItem } from './matcher';

/** Reddit pages hold at most this many things. */
export const PAGE_LIMIT = 100;
/** Reddit never lists deeper than this. */
export const LISTING_CAP = 1000;

const SUBREDDIT_NAME = /^[A-Za-z0-9_]{2,21}$/;

/** A post or comment as discovery keeps it: what the matcher reads plus what a lead shows. */
export interface ListedItem extends MatchableItem {
  /** Seconds, as Reddit gives it. */
  createdUtc: number;
  permalink: string;
  score: number;
  /** Posts: their title; comments: the title of their post. */
  postTitle: string;
}

export interface ListedPage {
  items: ListedItem[];
  after: string | null;
}

export class NoSearchCredentialError extends Error {
  override name = 'NoSearchCredentialError';
  constructor() {
    super('No enabled Reddit search credential is configured.');
  }
}

/**
 * Discovery's reads, spread round-robin over every enabled search credential; none of them waits. A
 * credential whose budget is spent is skipped; when all are spent the read throws
 * RedditBudgetExhaustedError with the earliest instant one frees.
 */
export class RedditReader {
  /** Requests sent through this reader. */
  requests = 0;
  private next = 0;

  constructor(private readonly apis: RedditApi[]) {}

  /**
   * The enabled search credentials' clients, in least-recently-used order. `attempt` is the how-manyth
   * run of the job reading (1 for the first): a 5xx or broken connection before the last one throws
   * RedditUnavailableError with `retryAtMs`, the retry's backoff instant; at the last one, without it.
   */
  static async forSearch(ctx: AppContext, options: { attempt?: number } = {}): Promise<RedditReader> {
    if (!ctx.reddit.endpoints) return new RedditReader([]);
    const clients = await redditClientsOfType(ctx, 'search');
    return new RedditReader(clients.map((c) => c.app.withoutWaiting(options)));
  }

  get usable(): boolean {
    return this.apis.length > 0;
  }

  async call<T>(read: (api: RedditApi) => Promise<T>): Promise<T> {
    if (this.apis.length === 0) throw new NoSearchCredentialError();
    let spent: RedditBudgetExhaustedError | null = null;
    let brokenOnce = false;
    for (let i = 0; i < this.apis.length; i++) {
      const index = (this.next + i) % this.apis.length;
      try {
        const result = await read(this.apis[index]!);
        this.requests++;
        this.next = (index + 1) % this.apis.length;
        return result;
      } catch (error) {
        if (error instanceof RedditBudgetExhaustedError) {
          if (!spent || error.retryAtMs < spent.retryAtMs) spent = error;
          continue;
        }
        this.requests++;
        // A connection that broke (an idle keep-alive socket closed by the other side) is tried once more
        // at once; a second failure means Reddit is unavailable. A 5xx is Reddit's own answer: asking
        // again at once would not spare it, so it goes to the caller, who retries after the backoff.
        if (error instanceof RedditUnavailableError && error.connectionBroke && !brokenOnce) {
          brokenOnce = true;
          i--;
          continue;
        }
        throw error;
      }
    }
    // Named by the credential that frees first: its wait is the one the caller keeps.
    throw new RedditBudgetExhaustedError('search', spent!.retryAtMs, spent!.source);
  }

  /** One page of a listing (`new` posts or comments) of one subreddit or a multireddit. */
  async list(
    kind: StreamKind,
    subs: string[],
    options: { limit: number; before?: string | null; after?: string | null },
  ): Promise<ListedPage> {
    const names = validSubreddits(subs);
    if (names.length === 0) return { items: [], after: null };
    if (kind === 't3') {
      const listing = await this.call((api) => api.listNew(names, options));
      return { items: listing.data.children.map((c) => fromPost(c.data)), after: listing.data.after };
    }
    const listing = await this.call((api) => api.listComments(names, options));
    return { items: listing.data.children.map((c) => fromComment(c.data)), after: listing.data.after };
  }

  /** Newest posts of one subreddit matching a search query. */
  async search(subreddit: string, q: string, limit: number): Promise<ListedItem[]> {
    if (validSubreddits([subreddit]).length === 0) return [];
    const listing = await this.call((api) => api.search({ subreddit, q, sort: 'new', limit }));
    return listing.data.children.map((c) => fromPost(c.data));
  }
}

/** Names Reddit could have (anything else would fail the whole multireddit). */
export function validSubreddits(names: string[]): string[] {
  return names.filter((n) => SUBREDDIT_NAME.test(n));
}

export function fromPost(p: TRedditPost): ListedItem {
  return {
    name: p.name,
    kind: 't3',
    subreddit: p.subreddit,
    author: p.author,
    title: p.title,
    body: p.selftext,
    createdUtc: p.created_utc,
    permalink: p.permalink,
    score: Math.round(p.score),
    postTitle: p.title,
  };
}

export function fromComment(c: TRedditComment): ListedItem {
  const postId = c.link_id.replace(/^t3_/, '');
  return {
    name: c.name,
    kind: 't1',
    subreddit: c.subreddit,
    author: c.author,
    // A comment's post title is not its own text: it is shown, never matched.
    title: '',
    body: c.body,
    createdUtc: c.created_utc,
    permalink: c.permalink ?? `/r/${c.subreddit}/comments/${postId}/_/${c.id}/`,
    score: Math.round(c.score),
    postTitle: c.link_title ?? '',
  };
}
