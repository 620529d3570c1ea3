import { request, type Dispatcher } from 'undici';
import type {
  RedditAccessTokenResponse,
  RedditComment,
  RedditJsonResponse,
  RedditListing,
  RedditMessage,
  RedditPost,
  RedditSubreddit,
  RedditUser,
} from '@threadreach/reddit-sim';
import type { Db } from '../../db/client';
import type { SecretBox } from '../../security/secrets';
import { systemClock, type Clock } from './clock';
import { RequestBudget } from './rate-budget';
import {
  RedditApiError,
  RedditAuthError,
  RedditUnavailableError,
  RedditUnknownOutcomeError,
} from './reddit.errors';
import { recordRequest, TOKEN_ENDPOINT } from './request-stats';
import { TokenStore } from './token-store';

export type { RedditComment, RedditListing, RedditMessage, RedditPost, RedditSubreddit, RedditUser };

/** Where Reddit is: reddit.com in production, the simulator by default. */
export interface RedditEndpoints {
  /** oauth.reddit.com: every API call. */
  apiUrl: string;
  /** www.reddit.com: authorize and access_token. */
  authUrl: string;
}

export interface RedditClientDeps {
  endpoints: RedditEndpoints;
  appId: string;
  version: string;
  db: Db;
  secrets: SecretBox;
  clock?: Clock;
  budget?: RequestBudget;
  log?: { warn(obj: object, msg: string): void };
  timeoutMs?: number;
  maxAttempts?: number;
  retryBaseMs?: number;
}

/** One credential as the client needs it: the decrypted secret stays in memory only. */
export interface RedditCredentialAccess {
  id: string;
  clientId: string;
  clientSecret: string;
  accountName: string;
  /** How the next request leaves (asked before every attempt, so a replaced proxy takes effect at once). */
  connection(): Promise<{ dispatcher: Dispatcher; proxied: boolean }>;
  /** Told whether each request got through, e.g. to keep the proxy's health figures. */
  onTransport?(outcome: { ok: boolean; proxied: boolean; error?: string }): Promise<void> | void;
}

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

export interface TokenGrant {
  accessToken: string;
  refreshToken: string | null;
  expiresIn: number;
  scope: string;
}

export const REDDIT_USER_SCOPES = ['identity', 'read', 'history', 'privatemessages'] as const;

const SUBREDDIT_NAME = /^[A-Za-z0-9_]{2,21}$/;
const USER_NAME = /^[A-Za-z0-9_-]{3,20}$/;

interface CallOptions {
  method: 'GET' | 'POST';
  url: string;
  endpoint: string;
  query?: Record<string, string | number | undefined | null>;
  form?: Record<string, string>;
  auth: { kind: 'basic' } | { kind: 'bearer'; subject: string; refreshToken?: string };
  /** Safe to send again after a broken connection or a 5xx. */
  idempotent: boolean;
  /** 404 answers null instead of throwing. */
  allowNotFound?: boolean;
}

/**
 * Typed access to Reddit's Data API for one credential. Every request takes a slot of the credential's
 * shared budget first, honours Retry-After and X-Ratelimit-Reset, retries idempotent calls on 5xx and
 * broken connections with jittered backoff, and is counted for the efficiency statistics.
 */
export class RedditClient {
  readonly app: RedditApi;
  private readonly clock: Clock;
  private readonly budget: RequestBudget;
  private readonly tokens: TokenStore;
  private readonly inflightTokens = new Map<string, Promise<string>>();
  private readonly userAgent: string;

  constructor(
    private readonly deps: RedditClientDeps,
    private readonly credential: RedditCredentialAccess,
  ) {
    this.clock = deps.clock ?? systemClock;
    this.budget = deps.budget ?? new RequestBudget(deps.db, this.clock);
    this.tokens = new TokenStore(deps.db, deps.secrets, this.clock);
    this.userAgent = redditUserAgent(deps.appId, deps.version, credential.accountName);
    this.app = new RedditApi(this, { kind: 'bearer', subject: 'app' });
  }

  /** The API as a connected account (authorization-code tokens). */
  forAccount(account: { id: string; refreshToken: string }): RedditApi {
    return new RedditApi(this, {
      kind: 'bearer',
      subject: `account:${account.id}`,
      refreshToken: account.refreshToken,
    });
  }

  /** Where to send a customer to connect an account through this (send) credential. */
  authorizeUrl(options: { state: string; redirectUri: string; scopes?: readonly string[] }): string {
    const url = new URL('/api/v1/authorize', this.deps.endpoints.authUrl);
    url.search = new URLSearchParams({
      client_id: this.credential.clientId,
      response_type: 'code',
      state: options.state,
      redirect_uri: options.redirectUri,
      duration: 'permanent',
      scope: (options.scopes ?? REDDIT_USER_SCOPES).join(' '),
    }).toString();
    return url.toString();
  }

  /** Trades the code from the authorize redirect for tokens; the caller stores the refresh token. */
  async exchangeCode(code: string, redirectUri: string): Promise<TokenGrant> {
    return this.grant({ grant_type: 'authorization_code', code, redirect_uri: redirectUri });
  }

  /** A real call through this credential's proxy: token (if none cached) and one listing request. */
  async testConnection(): Promise<{ canConnect: boolean; responseTimeMs: number; error: string | null }> {
    const started = performance.now();
    try {
      await this.app.listNew(['all'], { limit: 1 });
      return { canConnect: true, responseTimeMs: Math.round(performance.now() - started), error: null };
    } catch (error) {
      return {
        canConnect: false,
        responseTimeMs: Math.round(performance.now() - started),
        error: (error as Error).message,
      };
    }
  }

  /** Forgets cached tokens, e.g. after the client secret changed. */
  async forgetToken(subject = 'app'): Promise<void> {
    await this.tokens.invalidate(this.credential.id, subject);
  }

  private async grant(form: Record<string, string>): Promise<TokenGrant> {
    const json = await this.call<RedditAccessTokenResponse & { error?: string }>({
      method: 'POST',
      url: new URL('/api/v1/access_token', this.deps.endpoints.authUrl).toString(),
      endpoint: TOKEN_ENDPOINT,
      form,
      auth: { kind: 'basic' },
      idempotent: form.grant_type !== 'authorization_code',
    });
    if (!json?.access_token) {
      throw new RedditAuthError(
        json?.error ?? 'invalid_grant',
        `Reddit refused the token request (${json?.error ?? 'no token'})`,
      );
    }
    return {
      accessToken: json.access_token,
      refreshToken: json.refresh_token ?? null,
      expiresIn: json.expires_in,
      scope: json.scope,
    };
  }

  private async accessToken(subject: string, refreshToken?: string): Promise<string> {
    const cached = await this.tokens.get(this.credential.id, subject);
    if (cached) return cached;
    const key = subject;
    let pending = this.inflightTokens.get(key);
    if (!pending) {
      pending = (async () => {
        const grant = await this.grant(
          refreshToken
            ? { grant_type: 'refresh_token', refresh_token: refreshToken }
            : { grant_type: 'client_credentials' },
        );
        await this.tokens.put(
          this.credential.id,
          subject,
          grant.accessToken,
          this.clock.now() + grant.expiresIn * 1000,
        );
        return grant.accessToken;
      })().finally(() => this.inflightTokens.delete(key));
      this.inflightTokens.set(key, pending);
    }
    return pending;
  }

  /** @internal used by RedditApi */
  async call<T>(options: CallOptions): Promise<T | null> {
    const maxAttempts = this.deps.maxAttempts ?? 4;
    let tokenRenewed = false;
    for (let attempt = 1; ; attempt++) {
      const headers: Record<string, string> = { 'user-agent': this.userAgent, accept: 'application/json' };
      if (options.auth.kind === 'basic') {
        headers.authorization = `Basic ${Buffer.from(`${this.credential.clientId}:${this.credential.clientSecret}`).toString('base64')}`;
      } else {
        headers.authorization = `bearer ${await this.accessToken(options.auth.subject, options.auth.refreshToken)}`;
      }
      let body: string | undefined;
      if (options.form) {
        headers['content-type'] = 'application/x-www-form-urlencoded';
        body = new URLSearchParams(options.form).toString();
      }
      const url = new URL(options.url);
      for (const [k, v] of Object.entries(options.query ?? {}))
        if (v !== undefined && v !== null) url.searchParams.set(k, String(v));

      const slot = await this.budget.acquire(this.credential.clientId);
      const { dispatcher, proxied } = await this.credential.connection();
      const record = (ok: boolean) => this.record(options.endpoint, ok, proxied);
      let status: number;
      let responseHeaders: Record<string, string | string[] | undefined>;
      let text: string;
      try {
        const res = await request(url, {
          method: options.method,
          headers,
          body,
          dispatcher,
          headersTimeout: this.deps.timeoutMs ?? 30_000,
          bodyTimeout: this.deps.timeoutMs ?? 30_000,
        });
        status = res.statusCode;
        responseHeaders = res.headers;
        text = await res.body.text();
        await this.budget.settle(slot);
      } catch (error) {
        await this.budget.settle(slot);
        const message = `Reddit request failed: ${(error as Error).message}`;
        await record(false);
        await this.credential.onTransport?.({ ok: false, proxied, error: (error as Error).message });
        if (!options.idempotent) throw new RedditUnknownOutcomeError(options.endpoint, message);
        if (attempt >= maxAttempts) throw new RedditUnavailableError(options.endpoint, message);
        await this.backoff(attempt);
        continue;
      }
      await this.credential.onTransport?.({ ok: true, proxied });
      await this.applyRateHeaders(status, responseHeaders);

      if (status === 429) {
        await record(false);
        if (attempt >= maxAttempts)
          throw new RedditUnavailableError(options.endpoint, 'Reddit rate limit (429)');
        continue; // the budget now holds the client back until the reset Reddit named
      }
      if (status === 401 && options.auth.kind === 'bearer' && !tokenRenewed) {
        await record(false);
        tokenRenewed = true;
        attempt--;
        await this.tokens.invalidate(this.credential.id, options.auth.subject);
        continue;
      }
      if (status >= 500) {
        await record(false);
        if (!options.idempotent) {
          throw new RedditUnknownOutcomeError(options.endpoint, `Reddit answered ${status}`);
        }
        if (attempt >= maxAttempts)
          throw new RedditUnavailableError(options.endpoint, `Reddit answered ${status}`);
        await this.backoff(attempt);
        continue;
      }
      if (status === 404 && options.allowNotFound) {
        await record(true);
        return null;
      }
      const json = parseJson(text);
      if (options.auth.kind === 'basic' && (status === 400 || status === 401)) {
        await record(false);
        const reason = (json as { error?: string } | null)?.error ?? String(status);
        throw new RedditAuthError(reason, `Reddit refused the credential (${reason})`);
      }
      if (status >= 400) {
        await record(false);
        throw new RedditApiError(
          status,
          options.endpoint,
          `Reddit answered ${status} for ${options.endpoint}`,
        );
      }
      await record(true);
      return json as T;
    }
  }

  private async applyRateHeaders(status: number, headers: Record<string, string | string[] | undefined>) {
    const header = (name: string) => {
      const v = headers[name];
      const n = Number(Array.isArray(v) ? v[0] : v);
      return Number.isFinite(n) ? n : null;
    };
    const reset = header('x-ratelimit-reset');
    const remaining = header('x-ratelimit-remaining');
    const retryAfter = header('retry-after');
    const now = this.clock.now();
    if (status === 429) {
      const waitSeconds = Math.max(retryAfter ?? 0, reset ?? 0, 1);
      await this.budget.blockUntil(this.credential.clientId, now + waitSeconds * 1000);
    } else if (remaining !== null && remaining < 1 && reset !== null) {
      await this.budget.blockUntil(this.credential.clientId, now + reset * 1000);
    }
  }

  private async backoff(attempt: number) {
    const base = this.deps.retryBaseMs ?? 500;
    const ceiling = Math.min(10_000, base * 2 ** (attempt - 1));
    await this.clock.sleep(Math.round(ceiling / 2 + Math.random() * (ceiling / 2)));
  }

  private async record(endpoint: string, ok: boolean, proxied: boolean) {
    try {
      await recordRequest(this.deps.db, {
        credentialId: this.credential.id,
        endpoint,
        ok,
        proxied,
        at: new Date(this.clock.now()),
      });
    } catch (error) {
      this.deps.log?.warn({ err: error, endpoint }, 'could not record a Reddit request');
    }
  }

  get credentialId(): string {
    return this.credential.id;
  }

  get clientId(): string {
    return this.credential.clientId;
  }

  /** @internal */
  get apiUrl() {
    return this.deps.endpoints.apiUrl;
  }
}

/** The endpoints of Reddit's Data API, as the app or as one connected account. */
export class RedditApi {
  constructor(
    private readonly client: RedditClient,
    private readonly auth: CallOptions['auth'],
  ) {}

  private get<T>(path: string, endpoint: string, query: CallOptions['query'] = {}, allowNotFound = false) {
    return this.client.call<T>({
      method: 'GET',
      url: new URL(path, this.client.apiUrl).toString(),
      endpoint,
      query: { raw_json: 1, ...query },
      auth: this.auth,
      idempotent: true,
      allowNotFound,
    });
  }

  private async listing<T>(path: string, endpoint: string, query: CallOptions['query']) {
    return (await this.get<RedditListing<T>>(path, endpoint, query)) ?? emptyListing<T>();
  }

  async me(): Promise<RedditUser> {
    return (await this.get<RedditUser>('/api/v1/me', 'GET /api/v1/me'))!;
  }

  /** Newest posts of one subreddit or several at once (a multireddit). */
  listNew(subreddits: string[], options: ListingOptions = {}) {
    return this.listing<RedditPost>(
      `/r/${subredditPath(subreddits)}/new`,
      'GET /r/{subreddits}/new',
      listingQuery(options),
    );
  }

  /** Newest comments of one subreddit or several at once. */
  listComments(subreddits: string[], options: ListingOptions = {}) {
    return this.listing<RedditComment>(
      `/r/${subredditPath(subreddits)}/comments`,
      'GET /r/{subreddits}/comments',
      listingQuery(options),
    );
  }

  search(options: SearchOptions) {
    const query = { ...listingQuery(options), q: options.q, sort: options.sort, t: options.t };
    if (options.subreddit) {
      return this.listing<RedditPost>(
        `/r/${subredditPath([options.subreddit])}/search`,
        'GET /r/{subreddit}/search',
        {
          ...query,
          restrict_sr: 1,
        },
      );
    }
    return this.listing<RedditPost>('/search', 'GET /search', query);
  }

  searchSubreddits(q: string, options: ListingOptions = {}) {
    return this.listing<RedditSubreddit>('/subreddits/search', 'GET /subreddits/search', {
      ...listingQuery(options),
      q,
    });
  }

  /** null when the subreddit does not exist. */
  async aboutSubreddit(name: string): Promise<RedditSubreddit | null> {
    const thing = await this.get<{ data: RedditSubreddit }>(
      `/r/${subredditPath([name])}/about`,
      'GET /r/{subreddit}/about',
      {},
      true,
    );
    return thing?.data ?? null;
  }

  /** null when the account does not exist or was deleted; suspended accounts have is_suspended. */
  async aboutUser(name: string): Promise<RedditUser | null> {
    const thing = await this.get<{ data: RedditUser }>(
      `/user/${userPath(name)}/about`,
      'GET /user/{name}/about',
      {},
      true,
    );
    return thing?.data ?? null;
  }

  userSubmitted(name: string, options: ListingOptions = {}) {
    return this.listing<RedditPost>(
      `/user/${userPath(name)}/submitted`,
      'GET /user/{name}/submitted',
      listingQuery(options),
    );
  }

  userComments(name: string, options: ListingOptions = {}) {
    return this.listing<RedditComment>(
      `/user/${userPath(name)}/comments`,
      'GET /user/{name}/comments',
      listingQuery(options),
    );
  }

  /** Posts and comments by fullname (t3_..., t1_...). */
  info(fullnames: string[]) {
    return this.listing<RedditPost | RedditComment>('/api/info', 'GET /api/info', {
      id: fullnames.join(','),
    });
  }

  inbox(options: ListingOptions = {}) {
    return this.listing<RedditMessage>('/message/inbox', 'GET /message/inbox', listingQuery(options));
  }

  sent(options: ListingOptions = {}) {
    return this.listing<RedditMessage>('/message/sent', 'GET /message/sent', listingQuery(options));
  }

  /**
   * Sends a private message. Reddit's refusals (unknown user, not accepting DMs, rate limit) come back as
   * a result; a broken connection or 5xx throws RedditUnknownOutcomeError and is never retried here.
   */
  async compose(message: { to: string; subject: string; text: string }): Promise<ComposeResult> {
    const json = await this.client.call<RedditJsonResponse & { json: { ratelimit?: number } }>({
      method: 'POST',
      url: new URL('/api/compose', this.client.apiUrl).toString(),
      endpoint: 'POST /api/compose',
      form: { api_type: 'json', to: message.to, subject: message.subject, text: message.text },
      auth: this.auth,
      idempotent: false,
    });
    const [first] = json?.json?.errors ?? [];
    if (!first) return { ok: true };
    return {
      ok: false,
      code: first[0],
      message: first[1],
      field: first[2] ?? null,
      retryAfterSeconds: json?.json?.ratelimit ?? null,
    };
  }

  async markRead(fullnames: string[]): Promise<void> {
    await this.client.call({
      method: 'POST',
      url: new URL('/api/read_message', this.client.apiUrl).toString(),
      endpoint: 'POST /api/read_message',
      form: { id: fullnames.join(',') },
      auth: this.auth,
      idempotent: true,
    });
  }
}

/** `<platform>:<app id>:<version> (by /u/<name>)`, the form Reddit asks every client to send. */
export function redditUserAgent(appId: string, version: string, accountName: string): string {
  const name = accountName.replace(/^\/?u\//, '').replace(/[^A-Za-z0-9_-]/g, '_') || 'threadreach';
  return `web:${appId}:${version} (by /u/${name})`;
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

function listingQuery(options: ListingOptions): CallOptions['query'] {
  return {
    limit: Math.min(100, Math.max(1, options.limit ?? 100)),
    after: options.after ?? undefined,
    before: options.before ?? undefined,
  };
}

function emptyListing<T>(): RedditListing<T> {
  return {
    kind: 'Listing',
    data: { after: null, before: null, dist: 0, modhash: null, geo_filter: null, children: [] },
  };
}

function parseJson(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
