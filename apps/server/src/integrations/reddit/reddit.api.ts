import type {
  TRedditCommentListing,
  TRedditInfoListing,
  TRedditMe,
  TRedditMessageListing,
  TRedditPostListing,
  TRedditSubreddit,
  TRedditSubredditListing,
  TRedditUser,
} from '@threadreach/reddit-schemas';
import { REDDIT_ENDPOINTS, type RedditEndpoint } from './reddit.endpoints';
import type { RedditAuth, RedditCallMode, RedditRequest, RedditTransport } from './reddit.transport';

export type {
  TRedditComment,
  TRedditCommentListing,
  TRedditInfoListing,
  TRedditMe,
  TRedditMessage,
  TRedditMessageListing,
  TRedditMessageThing,
  TRedditPost,
  TRedditPostListing,
  TRedditSubreddit,
  TRedditSubredditListing,
  TRedditUser,
} from '@threadreach/reddit-schemas';

export interface ListingOptions {
  limit?: number;
  after?: string | null;
  before?: string | null;
}

export interface SearchOptions extends ListingOptions {
  q: string;
  /** Search inside one subreddit (restrict_sr=1). */
  subreddit?: string;
  sort?: 'relevance' | 'new' | 'top' | 'comments';
  t?: 'hour' | 'day' | 'week' | 'month' | 'year' | 'all';
}

export type ComposeResult =
  | { ok: true }
  | { ok: false; code: string; message: string; field: string | null; retryAfterSeconds: number | null };

const SUBREDDIT_NAME = /^[A-Za-z0-9_]{2,21}$/;
const USER_NAME = /^[A-Za-z0-9_-]{3,20}$/;

type Query = RedditRequest<unknown>['query'];

/** The endpoints of Reddit's Data API, as the app or as one connected account. */
export class RedditApi {
  constructor(
    private readonly transport: RedditTransport,
    private readonly auth: RedditAuth,
    private readonly mode?: RedditCallMode,
  ) {}

  /**
   * The same API for a job: no call waits for the budget, a Retry-After or a retry's backoff; each
   * throws an error with `retryAtMs` instead. `attempt` is the job's how-manyth run (1 for the first).
   */
  withoutWaiting(options: { attempt?: number } = {}): RedditApi {
    return new RedditApi(this.transport, this.auth, { wait: false, ...options });
  }

  private get<T>(endpoint: RedditEndpoint<T>, path: string, query: Query = {}) {
    return this.transport.send(
      { endpoint, path, query: { raw_json: 1, ...query }, auth: this.auth, idempotent: true },
      this.mode,
    );
  }

  private getOrNull<T>(endpoint: RedditEndpoint<T>, path: string) {
    return this.transport.send(
      { endpoint, path, query: { raw_json: 1 }, auth: this.auth, idempotent: true, allowNotFound: true },
      this.mode,
    );
  }

  me(): Promise<TRedditMe> {
    return this.get(REDDIT_ENDPOINTS.me, '/api/v1/me');
  }

  /** Newest posts of one subreddit or several at once (a multireddit). */
  listNew(subreddits: string[], options: ListingOptions = {}): Promise<TRedditPostListing> {
    return this.get(
      REDDIT_ENDPOINTS.subredditNew,
      `/r/${subredditPath(subreddits)}/new`,
      listingQuery(options),
    );
  }

  /** Newest comments of one subreddit or several at once. */
  listComments(subreddits: string[], options: ListingOptions = {}): Promise<TRedditCommentListing> {
    return this.get(
      REDDIT_ENDPOINTS.subredditComments,
      `/r/${subredditPath(subreddits)}/comments`,
      listingQuery(options),
    );
  }

  search(options: SearchOptions): Promise<TRedditPostListing> {
    const query = { ...listingQuery(options), q: options.q, sort: options.sort, t: options.t };
    if (options.subreddit) {
      return this.get(REDDIT_ENDPOINTS.subredditSearch, `/r/${subredditPath([options.subreddit])}/search`, {
        ...query,
        restrict_sr: 1,
      });
    }
    return this.get(REDDIT_ENDPOINTS.search, '/search', query);
  }

  searchSubreddits(q: string, options: ListingOptions = {}): Promise<TRedditSubredditListing> {
    return this.get(REDDIT_ENDPOINTS.subredditsSearch, '/subreddits/search', {
      ...listingQuery(options),
      q,
    });
  }

  /** null when the subreddit does not exist. */
  async aboutSubreddit(name: string): Promise<TRedditSubreddit | null> {
    const thing = await this.getOrNull(REDDIT_ENDPOINTS.subredditAbout, `/r/${subredditPath([name])}/about`);
    return thing?.data ?? null;
  }

  /** null when the account does not exist or was deleted; suspended accounts have is_suspended. */
  async aboutUser(name: string): Promise<TRedditUser | null> {
    const thing = await this.getOrNull(REDDIT_ENDPOINTS.userAbout, `/user/${userPath(name)}/about`);
    return thing?.data ?? null;
  }

  userSubmitted(name: string, options: ListingOptions = {}): Promise<TRedditPostListing> {
    return this.get(
      REDDIT_ENDPOINTS.userSubmitted,
      `/user/${userPath(name)}/submitted`,
      listingQuery(options),
    );
  }

  userComments(name: string, options: ListingOptions = {}): Promise<TRedditCommentListing> {
    return this.get(REDDIT_ENDPOINTS.userComments, `/user/${userPath(name)}/comments`, listingQuery(options));
  }

  /** Posts and comments by fullname (t3_..., t1_...). */
  info(fullnames: string[]): Promise<TRedditInfoListing> {
    return this.get(REDDIT_ENDPOINTS.info, '/api/info', { id: fullnames.join(',') });
  }

  /** Everything received: messages (threaded, later ones in `replies`) and comment replies (t1). */
  inbox(options: ListingOptions = {}): Promise<TRedditMessageListing> {
    return this.get(REDDIT_ENDPOINTS.inbox, '/message/inbox', listingQuery(options));
  }

  /** What is still unread, one item per message; reading it does not mark it read. */
  unread(options: ListingOptions = {}): Promise<TRedditMessageListing> {
    return this.get(REDDIT_ENDPOINTS.unread, '/message/unread', { ...listingQuery(options), mark: 'false' });
  }

  /** Private messages only, sent and received, threaded like the inbox. */
  messages(options: ListingOptions = {}): Promise<TRedditMessageListing> {
    return this.get(REDDIT_ENDPOINTS.messages, '/message/messages', listingQuery(options));
  }

  sent(options: ListingOptions = {}): Promise<TRedditMessageListing> {
    return this.get(REDDIT_ENDPOINTS.sent, '/message/sent', listingQuery(options));
  }

  /**
   * Sends a private message. Reddit's refusals (unknown user, not accepting DMs, rate limit) come back as
   * a result; a broken connection or 5xx throws RedditUnknownOutcomeError and is never retried here.
   * `notAfterMs`: the message is not sent from then on (RedditTooLateError).
   */
  async compose(
    message: { to: string; subject: string; text: string },
    options: { notAfterMs?: number } = {},
  ): Promise<ComposeResult> {
    const answer = await this.transport.send(
      {
        endpoint: REDDIT_ENDPOINTS.compose,
        path: '/api/compose',
        form: { api_type: 'json', to: message.to, subject: message.subject, text: message.text },
        auth: this.auth,
        idempotent: false,
        ...(options.notAfterMs === undefined ? {} : { notAfterMs: options.notAfterMs }),
      },
      this.mode,
    );
    const [first] = answer.json.errors;
    if (!first) return { ok: true };
    return {
      ok: false,
      code: first[0],
      message: first[1],
      field: first[2] ?? null,
      retryAfterSeconds: answer.json.ratelimit ?? null,
    };
  }

  async markRead(fullnames: string[]): Promise<void> {
    await this.transport.send(
      {
        endpoint: REDDIT_ENDPOINTS.readMessage,
        path: '/api/read_message',
        form: { id: fullnames.join(',') },
        auth: this.auth,
        idempotent: true,
      },
      this.mode,
    );
  }
}

function subredditPath(names: string[]): string {
  if (names.length === 0) throw new Error('At least one subreddit is needed');
  for (const n of names) if (!SUBREDDIT_NAME.test(n)) throw new Error(`Invalid subreddit name '${n}'`);
  return names.join('+');
}

function userPath(name: string): string {
  if (!USER_NAME.test(name)) throw new Error(`Invalid Reddit user name '${name}'`);
  return name;
}

function listingQuery(options: ListingOptions): Query {
  return {
    limit: Math.min(100, Math.max(1, options.limit ?? 100)),
    after: options.after ?? undefined,
    before: options.before ?? undefined,
  };
}
