import { RedditApi } from './reddit.api';
import {
  RedditTransport,
  type RedditCallMode,
  type RedditClientDeps,
  type RedditCredentialAccess,
  type TokenGrant,
} from './reddit.transport';

const accountSubject = (accountId: string) => `account:${accountId}`;

export const REDDIT_USER_SCOPES = ['identity', 'read', 'history', 'privatemessages'] as const;

/**
 * Typed access to Reddit's Data API for one credential: the API as the app (`app`) or as a connected
 * account (`forAccount`), over one transport that takes a slot of the credential's shared budget for
 * every request, honours Retry-After and X-Ratelimit-*, retries idempotent calls, counts every request
 * for the efficiency statistics, and reads every answer with its endpoint's schema.
 */
export class RedditClient {
  readonly transport: RedditTransport;
  readonly app: RedditApi;

  constructor(deps: RedditClientDeps, credential: RedditCredentialAccess) {
    this.transport = new RedditTransport(deps, credential);
    this.app = new RedditApi(this.transport, { kind: 'bearer', subject: 'app' });
  }

  /** The API as a connected account (authorization-code tokens). */
  forAccount(account: { id: string; refreshToken: string }, mode?: RedditCallMode): RedditApi {
    return new RedditApi(
      this.transport,
      { kind: 'bearer', subject: accountSubject(account.id), refreshToken: account.refreshToken },
      mode,
    );
  }

  /** The API as an account that has just signed in: the access token it got is kept, so none is refreshed. */
  async forSignedInAccount(
    account: { id: string; refreshToken: string },
    grant: TokenGrant,
    mode?: RedditCallMode,
  ): Promise<RedditApi> {
    await this.transport.rememberToken(accountSubject(account.id), grant);
    return this.forAccount(account, mode);
  }

  /** Forgets an account's cached access token; its next call is granted a new one. */
  async forgetAccountToken(accountId: string): Promise<void> {
    await this.transport.forgetToken(accountSubject(accountId));
  }

  /**
   * Gives up an account's grant at Reddit and forgets its cached access token. One attempt within
   * `timeoutMs` that never waits for the budget; false when Reddit did not confirm it.
   */
  async revokeAccount(
    account: { id: string; refreshToken: string },
    options: { timeoutMs: number },
  ): Promise<boolean> {
    await this.transport.forgetToken(accountSubject(account.id));
    return this.transport.revoke(account.refreshToken, 'refresh_token', options.timeoutMs);
  }

  /** Where to send a customer to connect an account through this (send) credential. */
  authorizeUrl(options: { state: string; redirectUri: string; scopes?: readonly string[] }): string {
    const url = new URL('/api/v1/authorize', this.transport.endpoints.authUrl);
    url.search = new URLSearchParams({
      client_id: this.transport.clientId,
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
    return this.transport.grant({ grant_type: 'authorization_code', code, redirect_uri: redirectUri });
  }

  /**
   * A real call through this credential's proxy: token (if none cached) and one listing request. A
   * person waits for the answer, so nothing waits for the budget, a Retry-After or a retry: any of
   * them is the test's answer.
   */
  async testConnection(): Promise<{ canConnect: boolean; responseTimeMs: number; error: string | null }> {
    const started = performance.now();
    try {
      await this.app.withoutWaiting().listNew(['all'], { limit: 1 });
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
    await this.transport.forgetToken(subject);
  }

  get credentialId(): string {
    return this.transport.credentialId;
  }

  get clientId(): string {
    return this.transport.clientId;
  }
}
