/** Reddit answered with an HTTP error that retrying will not fix. */
export class RedditApiError extends Error {
  override name = 'RedditApiError';
  constructor(
    readonly status: number,
    readonly endpoint: string,
    message: string,
  ) {
    super(message);
  }
}

/** Reddit could not be reached (refused, reset, timed out, 5xx) after the allowed retries. */
export class RedditUnavailableError extends Error {
  override name = 'RedditUnavailableError';
  constructor(
    readonly endpoint: string,
    message: string,
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
