import {
  readRedditRateLimit,
  ZRedditEmptyResponse,
  type TRedditAccessToken,
  type TRedditAccessTokenResponse,
} from '@threadreach/reddit-schemas';
import { request, type Dispatcher } from 'undici';
import type { Db } from '../../db/client';
import type { SecretBox } from '../../security/secrets';
import { systemClock, type Clock } from './clock';
import { RequestBudget } from './rate-budget';
import { parseRedditAnswer, REDDIT_ENDPOINTS, type RedditEndpoint } from './reddit.endpoints';
import {
  RedditApiError,
  RedditAuthError,
  RedditResponseShapeError,
  RedditTooLateError,
  RedditUnavailableError,
  RedditUnknownOutcomeError,
} from './reddit.errors';
import { recordRequest } from './request-stats';
import { TokenStore } from './token-store';

/** Where Reddit is: reddit.com in production, the simulator by default. */
export interface RedditEndpoints {
  /** oauth.reddit.com: every API call. */
  apiUrl: string;
  /** www.reddit.com: authorize and access_token. */
  authUrl: string;
}

/** Where people read Reddit's posts and profiles: the simulator's own pages in the demo. */
export function redditWebUrl(endpoints: RedditEndpoints | null): string {
  return endpoints?.authUrl ?? 'https://www.reddit.com';
}

/**
 * Whether a call may wait for the budget, a Retry-After or a retry's backoff. Interactive calls wait;
 * jobs do not: they get an error with `retryAtMs` and are rescheduled for then. `attempt` is the
 * how-manyth run of the job this is (1 for the first), so backoff grows and retries stay bounded.
 */
export type RedditCallMode = { wait: true } | { wait: false; attempt?: number };

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
  /** The default for every call of this client; `{ wait: true }` unless given. */
  mode?: RedditCallMode;
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
  /** Reddit's answer to the client id and secret themselves: refused (401) or accepted (a token granted). */
  onVerdict?(accepted: boolean): Promise<void> | void;
}

export type RedditAuth =
  { kind: 'basic' } | { kind: 'bearer'; subject: string; refreshToken?: string } | { kind: 'none' };

export interface RedditRequest<T> {
  endpoint: RedditEndpoint<T>;
  /** Path on the API host (or the auth host for `basic`), e.g. `/r/startups/new`. */
  path: string;
  query?: Record<string, string | number | undefined | null>;
  form?: Record<string, string>;
  auth: RedditAuth;
  /** Safe to send again after a broken connection or a 5xx. */
  idempotent: boolean;
  /** 404 answers null instead of throwing. */
  allowNotFound?: boolean;
  /** Not sent from this instant on (RedditTooLateError), checked as the request is about to leave. */
  notAfterMs?: number;
}

export interface TokenGrant {
  accessToken: string;
  refreshToken: string | null;
  expiresIn: number;
  scope: string;
}

/** Revocation is read by its status alone (Reddit answers 204), so it is not among the parsed endpoints. */
const REVOKE_TOKEN: RedditEndpoint<unknown> = {
  method: 'POST',
  pattern: '/api/v1/revoke_token',
  label: 'POST /api/v1/revoke_token',
  path: /^\/api\/v1\/revoke_token\/?$/,
  schema: ZRedditEmptyResponse,
};

/** `X-Ratelimit-Reset` is whole seconds, rounded down: hold back a second longer than it says. */
const RESET_MARGIN_MS = 1000;

/**
 * How every request of one credential reaches Reddit: the access token (cached for all processes), a
 * slot of the credential's shared budget, its proxy, the request statistics, Retry-After and
 * X-Ratelimit-*, and retries of idempotent calls with jittered backoff. Answers are read with their
 * endpoint's schema.
 */
export class RedditTransport {
  readonly clock: Clock;
  private readonly budget: RequestBudget;
  private readonly tokens: TokenStore;
  private readonly inflightTokens = new Map<string, Promise<string>>();
  private readonly userAgent: string;
  private readonly mode: RedditCallMode;

  constructor(
    private readonly deps: RedditClientDeps,
    private readonly credential: RedditCredentialAccess,
  ) {
    this.clock = deps.clock ?? systemClock;
    this.budget = deps.budget ?? new RequestBudget(deps.db, this.clock);
    this.tokens = new TokenStore(deps.db, deps.secrets, this.clock);
    this.userAgent = redditUserAgent(deps.appId, deps.version, credential.accountName);
    this.mode = deps.mode ?? { wait: true };
  }

  get credentialId(): string {
    return this.credential.id;
  }

  get clientId(): string {
    return this.credential.clientId;
  }

  get endpoints(): RedditEndpoints {
    return this.deps.endpoints;
  }

  /** Asks for tokens with this credential's client id and secret. */
  async grant(form: Record<string, string>, mode: RedditCallMode = this.mode): Promise<TokenGrant> {
    const answer = await this.send(
      {
        endpoint: REDDIT_ENDPOINTS.accessToken,
        path: '/api/v1/access_token',
        form,
        auth: { kind: 'basic' },
        // A code is single-use: if the answer was lost, asking again cannot succeed.
        idempotent: form.grant_type !== 'authorization_code',
      },
      mode,
    );
    if (!isGranted(answer)) {
      const reason = typeof answer.error === 'string' ? answer.error : 'invalid_grant';
      throw new RedditAuthError(reason, `Reddit refused the token request (${reason})`);
    }
    return {
      accessToken: answer.access_token,
      refreshToken: answer.refresh_token ?? null,
      expiresIn: answer.expires_in,
      scope: answer.scope,
    };
  }

  /** Forgets a cached token, e.g. after the client secret changed. */
  async forgetToken(subject: string): Promise<void> {
    await this.tokens.invalidate(this.credential.id, subject);
  }

  /** Keeps an access token just granted (an account's sign-in) for the subject's next calls. */
  async rememberToken(subject: string, grant: TokenGrant): Promise<void> {
    await this.tokens.put(
      this.credential.id,
      subject,
      grant.accessToken,
      this.clock.now() + grant.expiresIn * 1000,
    );
  }

  /**
   * `POST /api/v1/revoke_token`: one attempt, no waiting for the budget (a spent one throws
   * RedditBudgetExhaustedError) and at most `timeoutMs`. Reddit answers 204 without a body whether or
   * not it knew the token, so only the status is read.
   */
  async revoke(token: string, hint: 'refresh_token' | 'access_token', timeoutMs: number): Promise<boolean> {
    const label = REVOKE_TOKEN.label;
    const slot = await this.takeSlot({ wait: false });
    const exchange = await this.exchange(
      {
        endpoint: REVOKE_TOKEN,
        path: '/api/v1/revoke_token',
        form: { token, token_type_hint: hint },
        auth: { kind: 'basic' },
        idempotent: true,
      },
      await this.headersFor({ kind: 'basic' }, { wait: false }),
      slot,
      timeoutMs,
    );
    if (exchange.kind === 'broken') {
      await this.record(label, false, exchange.proxied);
      await this.credential.onTransport?.({ ok: false, proxied: exchange.proxied, error: exchange.error });
      return false;
    }
    await this.credential.onTransport?.({ ok: true, proxied: exchange.proxied });
    await this.applyRateHeaders(exchange.status, exchange.headers);
    const ok = exchange.status >= 200 && exchange.status < 300;
    await this.record(label, ok, exchange.proxied);
    return ok;
  }

  private async accessToken(subject: string, refreshToken: string | undefined, mode: RedditCallMode) {
    const cached = await this.tokens.get(this.credential.id, subject);
    if (cached) return cached;
    // A caller that may not wait must not share a grant that waits, and the other way round.
    const key = `${subject}:${mode.wait}`;
    let pending = this.inflightTokens.get(key);
    if (!pending) {
      pending = (async () => {
        const grant = await this.grant(
          refreshToken
            ? { grant_type: 'refresh_token', refresh_token: refreshToken }
            : { grant_type: 'client_credentials' },
          mode,
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

  /** Sends one request (with its retries) and reads the answer with the endpoint's schema. */
  send<T>(request: RedditRequest<T> & { allowNotFound: true }, mode?: RedditCallMode): Promise<T | null>;
  send<T>(request: RedditRequest<T>, mode?: RedditCallMode): Promise<T>;
  async send<T>(request: RedditRequest<T>, mode: RedditCallMode = this.mode): Promise<T | null> {
    const label = request.endpoint.label;
    const maxAttempts = this.deps.maxAttempts ?? 4;
    const firstAttempt = mode.wait ? 1 : (mode.attempt ?? 1);
    let tokenRenewed = false;
    for (let attempt = firstAttempt; ; attempt++) {
      const headers = await this.headersFor(request.auth, mode);
      const slot = await this.takeSlot(mode);
      const exchange = await this.exchange(request, headers, slot);
      const { proxied } = exchange;
      const record = (ok: boolean) => this.record(label, ok, proxied);

      if (exchange.kind === 'broken') {
        await record(false);
        await this.credential.onTransport?.({ ok: false, proxied, error: exchange.error });
        const message = `Reddit request failed: ${exchange.error}`;
        if (!request.idempotent) throw new RedditUnknownOutcomeError(label, message);
        await this.retryLater(label, message, attempt, maxAttempts, mode, true);
        continue;
      }
      await this.credential.onTransport?.({ ok: true, proxied });
      const { status, text } = exchange;
      await this.applyRateHeaders(status, exchange.headers);

      if (status === 429) {
        await record(false);
        // A job is rescheduled for the block's end by the budget below, however often it was refused.
        if (mode.wait && attempt >= maxAttempts) {
          throw new RedditUnavailableError(label, 'Reddit rate limit (429)');
        }
        continue; // the budget now holds the client back until the instant Reddit named
      }
      if (status === 401 && request.auth.kind === 'bearer' && !tokenRenewed) {
        await record(false);
        tokenRenewed = true;
        attempt--;
        await this.tokens.invalidate(this.credential.id, request.auth.subject);
        continue;
      }
      if (status >= 500) {
        await record(false);
        const message = `Reddit answered ${status}`;
        if (!request.idempotent) throw new RedditUnknownOutcomeError(label, message);
        await this.retryLater(label, message, attempt, maxAttempts, mode);
        continue;
      }
      if (status === 404 && request.allowNotFound) {
        await record(true);
        return null;
      }
      const answer = parseRedditAnswer(request.endpoint, status, text);
      if (answer.kind === 'data') {
        await record(true);
        if (request.auth.kind === 'basic') await this.credential.onVerdict?.(true);
        return answer.value;
      }
      await record(false);
      if (status < 400)
        throw new RedditResponseShapeError(label, answer.kind === 'invalid' ? answer.problem : '');
      const reason = answer.kind === 'error' ? answer.reason : null;
      if (request.auth.kind === 'basic' && (status === 400 || status === 401)) {
        if (status === 401) await this.credential.onVerdict?.(false);
        const why = reason ?? String(status);
        throw new RedditAuthError(why, `Reddit refused the credential (${why})`);
      }
      throw new RedditApiError(
        status,
        label,
        `Reddit answered ${status} for ${label}${reason ? ` (${reason})` : ''}`,
        reason,
      );
    }
  }

  /**
   * One unauthenticated round trip (`GET /api/v1/me`, which answers 401) through the credential's
   * connection, budget and statistics: any HTTP answer means the way to Reddit works. Not reported to
   * `onTransport`; the caller keeps the figures of what it checks.
   */
  async probe(
    options: { timeoutMs?: number; mode?: RedditCallMode } = {},
  ): Promise<{ ok: boolean; proxied: boolean; status?: number; error?: string }> {
    const label = `${REDDIT_ENDPOINTS.me.label} (connection check)`;
    const slot = await this.takeSlot(options.mode ?? this.mode);
    const exchange = await this.exchange(
      { endpoint: REDDIT_ENDPOINTS.me, path: '/api/v1/me', auth: { kind: 'none' }, idempotent: true },
      this.baseHeaders(),
      slot,
      options.timeoutMs,
    );
    if (exchange.kind === 'broken') {
      await this.record(label, false, exchange.proxied);
      return { ok: false, proxied: exchange.proxied, error: exchange.error };
    }
    await this.applyRateHeaders(exchange.status, exchange.headers);
    await this.record(label, true, exchange.proxied);
    return { ok: true, proxied: exchange.proxied, status: exchange.status };
  }

  private baseHeaders(): Record<string, string> {
    return { 'user-agent': this.userAgent, accept: 'application/json' };
  }

  private async headersFor(auth: RedditAuth, mode: RedditCallMode): Promise<Record<string, string>> {
    const headers = this.baseHeaders();
    if (auth.kind === 'basic') {
      const pair = `${this.credential.clientId}:${this.credential.clientSecret}`;
      headers.authorization = `Basic ${Buffer.from(pair).toString('base64')}`;
    } else if (auth.kind === 'bearer') {
      headers.authorization = `bearer ${await this.accessToken(auth.subject, auth.refreshToken, mode)}`;
    }
    return headers;
  }

  private takeSlot(mode: RedditCallMode): Promise<number> {
    return mode.wait
      ? this.budget.acquire(this.credential.clientId)
      : this.budget.acquireNow(this.credential.clientId);
  }

  /** One HTTP exchange on a slot already taken; the slot is dated to the answer. */
  private async exchange(
    req: RedditRequest<unknown>,
    headers: Record<string, string>,
    slot: number,
    timeoutMs = this.deps.timeoutMs ?? 30_000,
  ): Promise<
    | {
        kind: 'answer';
        proxied: boolean;
        status: number;
        headers: Record<string, string | string[] | undefined>;
        text: string;
      }
    | { kind: 'broken'; proxied: boolean; error: string }
  > {
    const base = req.auth.kind === 'basic' ? this.deps.endpoints.authUrl : this.deps.endpoints.apiUrl;
    const url = new URL(req.path, base);
    for (const [k, v] of Object.entries(req.query ?? {}))
      if (v !== undefined && v !== null) url.searchParams.set(k, String(v));
    let body: string | undefined;
    if (req.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(req.form).toString();
    }
    let connection: { dispatcher: Dispatcher; proxied: boolean };
    try {
      connection = await this.credential.connection();
    } catch (error) {
      await this.budget.settle(slot);
      throw error;
    }
    const { dispatcher, proxied } = connection;
    const nowMs = this.clock.now();
    if (req.notAfterMs !== undefined && nowMs >= req.notAfterMs) {
      await this.budget.settle(slot);
      throw new RedditTooLateError(req.endpoint.label, req.notAfterMs, nowMs);
    }
    try {
      const res = await request(url, {
        method: req.endpoint.method,
        headers,
        body,
        dispatcher,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      const text = await res.body.text();
      await this.budget.settle(slot);
      return { kind: 'answer', proxied, status: res.statusCode, headers: res.headers, text };
    } catch (error) {
      await this.budget.settle(slot);
      return { kind: 'broken', proxied, error: (error as Error).message };
    }
  }

  /** Waits out a retry's backoff, or (a call that may not wait) throws with the instant to retry at. */
  private async retryLater(
    label: string,
    message: string,
    attempt: number,
    maxAttempts: number,
    mode: RedditCallMode,
    connectionBroke = false,
  ): Promise<void> {
    if (attempt >= maxAttempts) throw new RedditUnavailableError(label, message, undefined, connectionBroke);
    const delayMs = this.backoffMs(attempt);
    if (!mode.wait) {
      throw new RedditUnavailableError(label, message, this.clock.now() + delayMs, connectionBroke);
    }
    await this.clock.sleep(delayMs);
  }

  private backoffMs(attempt: number): number {
    const base = this.deps.retryBaseMs ?? 500;
    const ceiling = Math.min(10_000, base * 2 ** (attempt - 1));
    return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
  }

  private async applyRateHeaders(status: number, headers: Record<string, string | string[] | undefined>) {
    const rate = readRedditRateLimit(headers);
    const now = this.clock.now();
    if (status === 429) {
      const waitSeconds = Math.max(rate.retryAfterSeconds ?? 0, rate.resetSeconds ?? 0, 1);
      await this.budget.blockUntil(this.credential.clientId, now + waitSeconds * 1000);
    } else if (rate.remaining !== null && rate.remaining < 1 && rate.resetSeconds !== null) {
      await this.budget.blockUntil(
        this.credential.clientId,
        now + rate.resetSeconds * 1000 + RESET_MARGIN_MS,
      );
    }
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
}

function isGranted(answer: TRedditAccessTokenResponse): answer is TRedditAccessToken {
  return typeof answer.access_token === 'string';
}

/** `<platform>:<app id>:<version> (by /u/<name>)`, the form Reddit asks every client to send. */
export function redditUserAgent(appId: string, version: string, accountName: string): string {
  const name = accountName.replace(/^\/?u\//, '').replace(/[^A-Za-z0-9_-]/g, '_') || 'threadreach';
  return `web:${appId}:${version} (by /u/${name})`;
}
