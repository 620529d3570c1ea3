import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { SimUser, UserPool } from './corpus/users';
import {
  type AccessToken,
  type RouteContext,
  type SimResponse,
  escapeHtml,
  json,
  redirect,
  simPage,
} from './http';

/** What a newcomer needs to know on the simulated consent form: nothing here reaches reddit.com. */
const CONSENT_NOTE =
  'Simulated Reddit: no real Reddit account is connected. Log in as one of the demo accounts below.';

export type ClientType = 'script' | 'web' | 'installed';

export interface ClientRegistration {
  clientId: string;
  /** Empty for installed apps, which have no secret. */
  clientSecret: string;
  type: ClientType;
  redirectUri?: string;
  name?: string;
}

interface Client extends Omit<ClientRegistration, 'clientSecret'> {
  /** Undefined until an auto-registered client first authenticates; then fixed. */
  clientSecret: string | undefined;
  autoRegistered: boolean;
}

interface AuthCode {
  clientId: string;
  redirectUri: string;
  user: SimUser;
  scopes: string[];
  permanent: boolean;
  expiresAt: number;
}

interface RefreshGrant {
  clientId: string;
  user: SimUser;
  scopes: string[];
}

/** Reddit's tokens now last a day (they used to last an hour): clients must read `expires_in`. */
export const TOKEN_LIFETIME_S = 86_400;
const CODE_LIFETIME_MS = 10 * 60_000;

export const SCOPES: Record<string, string> = {
  identity: 'Access your reddit username and signup date.',
  read: 'Access posts and comments through my account.',
  history: 'Access my voting history and comments or submissions I have saved or hidden.',
  privatemessages: 'Access my inbox and send private messages to other users.',
  submit: 'Submit links and comments from my account.',
  edit: 'Edit and delete my comments and submissions.',
  mysubreddits: 'Access the list of subreddits I moderate, contribute to, and subscribe to.',
  subscribe: 'Manage my subreddit subscriptions.',
  vote: 'Submit and change my votes on comments and submissions.',
  save: 'Save and unsave comments and submissions.',
  report: 'Report content for rules violations.',
  account: 'Update preferences and related account information.',
  flair: 'Select my subreddit flair.',
  wikiread: 'Read wiki pages through my account.',
};

export class OAuth {
  private readonly clients = new Map<string, Client>();
  private readonly codes = new Map<string, AuthCode>();
  private readonly tokens = new Map<string, AccessToken>();
  private readonly refreshTokens = new Map<string, RefreshGrant>();

  constructor(
    private readonly users: UserPool,
    private readonly acceptAnyClient: boolean,
    private readonly grantsFile?: string,
  ) {
    if (grantsFile) this.loadGrants(grantsFile);
  }

  /**
   * Refresh tokens outlive the simulator when it keeps them in a file, as Reddit's outlive a restart of
   * the app: connected accounts keep working after the demo is started again. Grants of accounts it no
   * longer knows are dropped.
   */
  private loadGrants(file: string): void {
    let saved: Record<string, { clientId: string; username: string; scopes: string[] }>;
    try {
      saved = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      return;
    }
    for (const [token, grant] of Object.entries(saved)) {
      const user = this.users.get(grant.username);
      if (user?.loginable)
        this.refreshTokens.set(token, { clientId: grant.clientId, user, scopes: grant.scopes });
    }
  }

  private saveGrants(): void {
    if (!this.grantsFile) return;
    const saved = Object.fromEntries(
      [...this.refreshTokens].map(([token, g]) => [
        token,
        { clientId: g.clientId, username: g.user.name, scopes: g.scopes },
      ]),
    );
    mkdirSync(path.dirname(this.grantsFile), { recursive: true });
    // Written whole and renamed into place: a crash mid-write leaves the previous file.
    const partial = `${this.grantsFile}.partial`;
    writeFileSync(partial, JSON.stringify(saved), { mode: 0o600 });
    renameSync(partial, this.grantsFile);
  }

  registerClient(reg: ClientRegistration): void {
    this.clients.set(reg.clientId, { ...reg, autoRegistered: false });
  }

  listClients(): Array<Omit<Client, 'clientSecret'>> {
    return [...this.clients.values()].map(({ clientSecret: _secret, ...rest }) => rest);
  }

  /** Authorization: bearer <token>; undefined when missing, unknown, revoked or expired. */
  verifyBearer(header: string | undefined, now: number): AccessToken | undefined {
    const match = /^bearer\s+(\S+)$/i.exec(header ?? '');
    if (!match?.[1]) return undefined;
    const token = this.tokens.get(match[1]);
    if (!token) return undefined;
    if (now >= token.expiresAt) {
      this.tokens.delete(token.token);
      return undefined;
    }
    return token;
  }

  /** Client id named by a request, for rate limiting and fault targeting, without verifying it. */
  basicClientId(header: string | undefined): string | undefined {
    return parseBasic(header)?.id;
  }

  private authenticate(header: string | undefined): Client | undefined {
    const creds = parseBasic(header);
    if (!creds?.id) return undefined;
    let client = this.clients.get(creds.id);
    if (!client) {
      if (!this.acceptAnyClient) return undefined;
      client = {
        clientId: creds.id,
        clientSecret: creds.secret,
        type: creds.secret === '' ? 'installed' : 'web',
        autoRegistered: true,
      };
      this.clients.set(creds.id, client);
      return client;
    }
    if (client.clientSecret === undefined) {
      client.clientSecret = creds.secret;
      if (creds.secret === '') client.type = 'installed';
      return client;
    }
    return client.clientSecret === creds.secret ? client : undefined;
  }

  // ---- authorize ----------------------------------------------------------------------------

  private authorizeRequest(params: URLSearchParams): { client: Client; redirectUri: string } | SimResponse {
    const clientId = params.get('client_id') ?? '';
    let client = this.clients.get(clientId);
    if (!client && clientId && this.acceptAnyClient) {
      client = { clientId, clientSecret: undefined, type: 'web', autoRegistered: true };
      this.clients.set(clientId, client);
    }
    if (!client) return errorPage('invalid client id');
    const redirectUri = params.get('redirect_uri') ?? client.redirectUri ?? '';
    if (!isUrl(redirectUri) || (client.redirectUri && client.redirectUri !== redirectUri)) {
      return errorPage('invalid redirect_uri parameter.');
    }
    return { client, redirectUri };
  }

  private authorizeError(params: URLSearchParams): string | undefined {
    if (params.get('response_type') !== 'code') return 'unsupported_response_type';
    const duration = params.get('duration') ?? 'temporary';
    if (duration !== 'temporary' && duration !== 'permanent') return 'invalid_request';
    const scopes = parseScopes(params.get('scope') ?? '');
    if (scopes.length === 0 || scopes.some((s) => !(s in SCOPES))) return 'invalid_scope';
    return undefined;
  }

  authorizePage(ctx: RouteContext): SimResponse {
    const found = this.authorizeRequest(ctx.query);
    if ('status' in found) return found;
    const { client, redirectUri } = found;
    const error = this.authorizeError(ctx.query);
    const state = ctx.query.get('state') ?? '';
    if (error) return redirect(withParams(redirectUri, { state, error }));
    const scopes = parseScopes(ctx.query.get('scope') ?? '');
    const duration = ctx.query.get('duration') ?? 'temporary';
    const preselect = ctx.query.get('username') ?? 'demo_founder';
    const appName = client.name ?? client.clientId;
    const hidden = ['client_id', 'redirect_uri', 'state', 'scope', 'duration', 'response_type']
      .map((k) => {
        const value = k === 'redirect_uri' ? redirectUri : (ctx.query.get(k) ?? '');
        return `<input type="hidden" name="${k}" value="${escapeHtml(value)}">`;
      })
      .join('\n      ');
    const accounts = this.users
      .loginAccounts()
      .map((u) => {
        const days = Math.floor((ctx.now - u.createdMs) / 86_400_000);
        const label = `${u.name} (${days} days old, ${u.linkKarma + u.commentKarma} karma${u.suspended ? ', suspended' : ''})`;
        const selected = u.name === preselect ? ' selected' : '';
        return `<option value="${escapeHtml(u.name)}"${selected}>${escapeHtml(label)}</option>`;
      })
      .join('\n        ');
    const scopeItems = scopes
      .map((s) => `<li><strong>${escapeHtml(s)}</strong>: ${escapeHtml(SCOPES[s] ?? s)}</li>`)
      .join('\n        ');
    const lasting =
      duration === 'permanent'
        ? 'It will keep this access until you revoke it.'
        : 'Its access will expire in 24 hours.';
    return simPage(
      200,
      'reddit.com: Authorize application',
      `      <h1>Authorize application</h1>
      <p><strong class="app-name">${escapeHtml(appName)}</strong> requests permission to connect with your reddit account.</p>
      <p>${lasting}</p>
      <ul class="scopes">
        ${scopeItems}
      </ul>
      <form method="post" action="/api/v1/authorize">
        ${hidden}
        <label>Log in as
          <select name="username">
          ${accounts}
          </select>
        </label>
        <div class="actions">
          <button type="submit" name="authorize" value="Approve">Approve</button>
          <button type="submit" name="authorize" value="Deny">Deny</button>
        </div>
      </form>`,
      CONSENT_NOTE,
    );
  }

  /** The consent form's answer. */
  authorizeDecision(ctx: RouteContext): SimResponse {
    const params = ctx.form;
    const found = this.authorizeRequest(params);
    if ('status' in found) return found;
    const { client, redirectUri } = found;
    const state = params.get('state') ?? '';
    const error = this.authorizeError(params);
    if (error) return redirect(withParams(redirectUri, { state, error }));
    const decision = (params.get('authorize') ?? params.get('action') ?? '').toLowerCase();
    if (decision !== 'approve' && decision !== 'allow') {
      return redirect(withParams(redirectUri, { state, error: 'access_denied' }));
    }
    const user = this.users.get(params.get('username') ?? '');
    if (!user?.loginable) return errorPage('unknown account');
    const code = randomToken(30);
    this.codes.set(code, {
      clientId: client.clientId,
      redirectUri,
      user,
      scopes: parseScopes(params.get('scope') ?? ''),
      permanent: params.get('duration') === 'permanent',
      expiresAt: ctx.now + CODE_LIFETIME_MS,
    });
    return redirect(withParams(redirectUri, { state, code }));
  }

  // ---- tokens -------------------------------------------------------------------------------

  accessToken(ctx: RouteContext): SimResponse {
    const client = this.authenticate(ctx.headers.authorization);
    if (!client) {
      return json(
        401,
        { error: 'invalid_client', message: 'Unauthorized' },
        { 'www-authenticate': 'Basic realm="reddit"' },
      );
    }
    const form = ctx.form;
    const grant = form.get('grant_type') ?? '';
    switch (grant) {
      case 'authorization_code': {
        const code = this.codes.get(form.get('code') ?? '');
        if (!code || code.clientId !== client.clientId || code.expiresAt <= ctx.now) {
          return grantError('invalid_grant');
        }
        if (code.redirectUri !== (form.get('redirect_uri') ?? '')) return grantError('invalid_grant');
        this.codes.delete(form.get('code') ?? '');
        return this.issue(client.clientId, code.user, code.scopes, code.permanent, ctx.now);
      }
      case 'refresh_token': {
        const refresh = form.get('refresh_token') ?? '';
        const grantInfo = this.refreshTokens.get(refresh);
        if (!grantInfo || grantInfo.clientId !== client.clientId) return grantError('invalid_grant');
        const issued = this.issue(client.clientId, grantInfo.user, grantInfo.scopes, false, ctx.now);
        (issued.body as Record<string, unknown>).refresh_token = refresh;
        return issued;
      }
      case 'client_credentials':
        if (client.type === 'installed') return grantError('unauthorized_client');
        return this.issue(client.clientId, undefined, ['*'], false, ctx.now);
      case 'https://oauth.reddit.com/grants/installed_client':
        if (!form.get('device_id')) return grantError('invalid_request');
        return this.issue(client.clientId, undefined, ['*'], false, ctx.now);
      case 'password': {
        if (client.type !== 'script') return grantError('unauthorized_client');
        const user = this.users.get(form.get('username') ?? '');
        if (!user?.loginable || !form.get('password')) return grantError('invalid_grant');
        return this.issue(client.clientId, user, ['*'], false, ctx.now);
      }
      default:
        return grantError('unsupported_grant_type');
    }
  }

  revoke(ctx: RouteContext): SimResponse {
    if (!this.authenticate(ctx.headers.authorization)) return json(401, { error: 'invalid_client' });
    const token = ctx.form.get('token') ?? '';
    this.tokens.delete(token);
    if (this.refreshTokens.delete(token)) this.saveGrants();
    return { status: 204 };
  }

  private issue(
    clientId: string,
    user: SimUser | undefined,
    scopes: string[],
    permanent: boolean,
    now: number,
  ): SimResponse {
    const token = `${user ? '' : 'app-'}${randomToken(32)}`;
    this.tokens.set(token, { token, clientId, user, scopes, expiresAt: now + TOKEN_LIFETIME_S * 1000 });
    const body: Record<string, unknown> = {
      access_token: token,
      token_type: 'bearer',
      expires_in: TOKEN_LIFETIME_S,
      scope: scopes.join(' '),
    };
    if (permanent && user) {
      const refresh = randomToken(32);
      this.refreshTokens.set(refresh, { clientId, user, scopes });
      this.saveGrants();
      body.refresh_token = refresh;
    }
    return json(200, body);
  }
}

export function hasScope(token: AccessToken, scope: string): boolean {
  return token.scopes.includes('*') || token.scopes.includes(scope);
}

function parseScopes(raw: string): string[] {
  return [...new Set(raw.split(/[\s,]+/).filter(Boolean))];
}

function parseBasic(header: string | undefined): { id: string; secret: string } | undefined {
  const match = /^basic\s+(\S+)$/i.exec(header ?? '');
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  return { id: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}

function grantError(error: string): SimResponse {
  return json(400, { error });
}

function errorPage(message: string): SimResponse {
  return simPage(
    400,
    'reddit.com: Bad Request',
    `      <h1>Bad Request</h1>
      <p class="error">${escapeHtml(message)}</p>`,
  );
}

function withParams(uri: string, params: Record<string, string>): string {
  const url = new URL(uri);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url.toString();
}

function randomToken(bytes: number): string {
  return randomBytes(bytes).toString('base64url');
}

function isUrl(text: string): boolean {
  try {
    new URL(text);
    return true;
  } catch {
    return false;
  }
}
