/** Reddit answered with an HTTP error that retrying will not fix. */
export class RedditApiError extends Error {
  override name = 'RedditApiError';
  constructor(
    readonly status: number,
    readonly endpoint: string,
    message: string,
    /** Reddit's reason from the error body (USER_DOESNT_EXIST, quarantined, ...), when it gave one. */
    readonly reason: string | null = null,
  ) {
    super(message);
  }
}

/**
 * Reddit could not be reached (refused, reset, timed out, 5xx) after the allowed retries. A call that
 * may not wait (a job) gets it at the first failure, with `retryAtMs`: when to try again.
 */
export class RedditUnavailableError extends Error {
  override name = 'RedditUnavailableError';
  constructor(
    readonly endpoint: string,
    message: string,
    readonly retryAtMs?: number,
    /** The connection broke (refused, reset, timed out) where a 5xx is an answer from a Reddit in trouble. */
    readonly connectionBroke = false,
  ) {
    super(message);
  }
}

/**
 * A non-idempotent call (a DM) may or may not have taken effect: the connection broke or Reddit failed
 * after the request was sent. It is never retried blindly; the caller reconciles from the sent messages.
 */
export class RedditUnknownOutcomeError extends Error {
  override name = 'RedditUnknownOutcomeError';
  constructor(
    readonly endpoint: string,
    message: string,
  ) {
    super(message);
  }
}

/** The OAuth client id/secret or the account's refresh token was refused. */
export class RedditAuthError extends Error {
  override name = 'RedditAuthError';
  constructor(
    readonly reason: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * A request that was held up (a paused process, a wait for the budget or a connection) past the last
 * instant its caller gave, and so never sent: the caller's hold on what it sends may have lapsed.
 */
export class RedditTooLateError extends RedditUnavailableError {
  override name = 'RedditTooLateError';
  constructor(endpoint: string, notAfterMs: number, nowMs: number) {
    super(endpoint, `not sent: held up past ${new Date(notAfterMs).toISOString()}`, nowMs);
  }
}

/**
 * What holds a credential's requests back: its own budget of 100 a minute is spent ('budget'), or Reddit
 * asked it to hold back ('reddit': a 429 with Retry-After, or `X-Ratelimit-Remaining` at 0).
 */
export type RedditHoldBackSource = 'budget' | 'reddit';

/** The phase a search or a subreddit suggestion shows while it waits out a pause Reddit asked for. */
export const WAITING_FOR_REDDIT_PAUSE = 'waiting for the pause Reddit asked for';
/** The phase a search or a subreddit suggestion shows while its credentials' request budget is spent. */
export const WAITING_FOR_REDDIT_BUDGET = "waiting for Reddit's request budget";

/**
 * The credential's budget is spent, or Reddit asked to hold back (`source` says which), and the caller
 * may not wait: a job that gets this is rescheduled for `retryAtMs`, when a slot frees.
 */
export class RedditBudgetExhaustedError extends Error {
  override name = 'RedditBudgetExhaustedError';
  constructor(
    readonly clientKey: string,
    readonly retryAtMs: number,
    readonly source: RedditHoldBackSource = 'budget',
  ) {
    super(
      `${source === 'reddit' ? 'Reddit asked for a pause in requests' : 'Reddit request budget spent'} ` +
        `until ${new Date(retryAtMs).toISOString()}`,
    );
  }

  /** Why requests wait, as people read it (no instant: each caller says when in its own words). */
  get reason(): string {
    return this.source === 'reddit'
      ? 'Reddit asked for a pause in requests'
      : "Reddit's request budget is spent";
  }
}

/** Reddit answered in a shape the product cannot read: a field it needs is missing or of another type. */
export class RedditResponseShapeError extends Error {
  override name = 'RedditResponseShapeError';
  constructor(
    readonly endpoint: string,
    readonly problem: string,
  ) {
    super(`Reddit answered ${endpoint} in an unexpected shape: ${problem}`);
  }
}
