import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse } from 'msw';
import {
  authEndpoints,
  billingEndpoints,
  SESSION_HINT_COOKIE,
  projectsEndpoints,
  systemEndpoints,
  usersEndpoints,
  type TAuthTokenResponse,
  type TPublicConfig,
} from '@threadreach/contract';
import { errorReply, mockEndpoint } from '../../../test/api-mock.test-support';
import { buildUserSubscription } from '../../../test/subscription.test-support';
import { renderApp, testLocation } from '../../../test/render-app';
import { makeToken } from '../../../test/tokens';
import { ACCESS_DENIED_TEXT } from './moderator-only';
import { localPrefs } from '../../../lib/local-prefs';
import { getToken, setToken } from '../../../lib/token-storage';
import { recordPageLoads } from '../../../test/navigation.test-support';
import { advance } from '../../../test/discovery.test-support';
import { ME_REFRESH_MS } from '../hooks/use-auth-queries';

let pageLoads: ReturnType<typeof recordPageLoads>;

const CONFIG: TPublicConfig = {
  demo_mode: true,
  main_app_url: null,
  support_chat_script_url: null,
  reddit_web_url: 'https://www.reddit.com',
  dm_expiry_days: 14,
};
const EMPTY_PROJECTS = { items: [], total: 0, limit: 500, offset: 0 };

/** The answers every page load needs; a test adds or replaces its own afterwards. */
function mockSignedOutApp() {
  mockEndpoint(systemEndpoints.publicConfig, CONFIG);
  mockEndpoint(authEndpoints.refreshWithToken, errorReply(401, 'No refresh cookie', 'unauthorized'));
  mockEndpoint(usersEndpoints.me, {
    user_id: 'user-1',
    email: 'user@example.com',
    roles: ['USER'],
    profiles_limit: 3,
    projects_used: 0,
  });
  mockEndpoint(projectsEndpoints.list, EMPTY_PROJECTS);
}

beforeEach(() => {
  pageLoads = recordPageLoads();
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});

/** The refresh endpoint's answer with `token`, for a user whose plan gives `limit` profiles. */
function refreshAnswer(token: string, userId: string, limit: number) {
  return {
    token,
    refresh_token: null,
    user: { user_id: userId, email: 'user@example.com', profiles_limit: limit },
    expires_at: '2030-01-01T00:00:00Z',
    refresh_expires_at: '2030-01-02T00:00:00Z',
    redirect_url: '/',
    requires_subscription: limit <= 0,
    subscribe_url: '/subscribe',
  };
}

/**
 * A customer whose token carries `token` profiles while the server, whose plan changed since, says `server`;
 * the refresh answers a token with the server's limit, returned with the refresh's mock.
 */
function planChangedSinceToken(
  userId: string,
  limits: { token: number; server: number; projectsUsed: number },
) {
  setToken(makeToken({ sub: userId, profiles_limit: limits.token }));
  mockSignedOutApp();
  mockEndpoint(usersEndpoints.me, {
    user_id: userId,
    email: 'user@example.com',
    roles: ['USER'],
    profiles_limit: limits.server,
    projects_used: limits.projectsUsed,
  });
  const refreshed = makeToken({ sub: userId, profiles_limit: limits.server });
  const refresh = mockEndpoint(
    authEndpoints.refreshWithToken,
    refreshAnswer(refreshed, userId, limits.server),
  );
  mockEndpoint(billingEndpoints.availablePlans, []);
  return { refreshed, refresh };
}

/** What the server sets beside the refresh cookie: a session may be restored. */
function leaveSessionHint() {
  document.cookie = `${SESSION_HINT_COOKIE}=1; path=/`;
}

describe('authentication gate', () => {
  it('shows the login screen without asking the server when no session was left to restore', async () => {
    mockSignedOutApp();
    const refresh = mockEndpoint(authEndpoints.refreshWithToken, errorReply(401, 'x', 'unauthorized'));
    renderApp('/');
    expect(await screen.findByText('Authentication Required')).toBeTruthy();
    expect(refresh.calls).toHaveLength(0);
  });

  it('shows the checking spinner, then the login screen when no session can be restored', async () => {
    let releaseRefresh!: () => void;
    leaveSessionHint();
    mockSignedOutApp();
    mockEndpoint(
      authEndpoints.refreshWithToken,
      () =>
        new Promise((resolve) => {
          releaseRefresh = () => resolve(errorReply(401, 'x', 'unauthorized'));
        }),
    );
    renderApp('/');
    expect(screen.getByText('Checking authentication...')).toBeTruthy();
    await waitFor(() => expect(releaseRefresh).toBeTypeOf('function'));
    releaseRefresh();
    expect(await screen.findByText('Authentication Required')).toBeTruthy();
    expect(screen.getByText('Please log in to access this application.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Log In' })).toBeTruthy();
    expect(await screen.findByText('Demo mode — simulated Reddit')).toBeTruthy();
  });

  it('restores the session silently with the refresh cookie', async () => {
    leaveSessionHint();
    mockSignedOutApp();
    mockEndpoint(authEndpoints.refreshWithToken, {
      token: makeToken(),
      refresh_token: null,
      user: { user_id: 'user-1', email: 'user@example.com', profiles_limit: 3 },
      expires_at: '2030-01-01T00:00:00Z',
      refresh_expires_at: '2030-01-02T00:00:00Z',
      redirect_url: '/',
      requires_subscription: false,
      subscribe_url: '/subscribe',
    });
    renderApp('/');
    expect(await screen.findByRole('button', { name: 'Create Your First Project' })).toBeTruthy();
  });

  it('Log In starts SSO with the current address and shows Redirecting...', async () => {
    mockSignedOutApp();
    const ssoStart = mockEndpoint(authEndpoints.ssoStart, {
      sso_url: 'http://idp.test/authorize?x=1',
      callback_url: '/auth/callback',
    });
    renderApp('/logs?level=ERROR');
    await userEvent.click(await screen.findByRole('button', { name: 'Log In' }));
    expect(await screen.findByText('Redirecting...')).toBeTruthy();
    expect(ssoStart.calls[0]!.query.redirect_to).toBe('/logs?level=ERROR');
    expect(pageLoads.left).toEqual(['http://idp.test/authorize?x=1']);
  });

  it('after a logout, asks the provider to let the person choose who signs in (prompt=login)', async () => {
    mockSignedOutApp();
    localPrefs.setSignedOut(true);
    const ssoStart = mockEndpoint(authEndpoints.ssoStart, { sso_url: 'http://idp.test/a', callback_url: '' });
    renderApp('/');
    await userEvent.click(await screen.findByRole('button', { name: 'Log In' }));
    await screen.findByText('Redirecting...');
    expect(ssoStart.calls[0]!.query.prompt).toBe('login');
  });

  it('does not send redirect_to from the root page', async () => {
    mockSignedOutApp();
    const ssoStart = mockEndpoint(authEndpoints.ssoStart, { sso_url: 'http://idp.test/a', callback_url: '' });
    renderApp('/');
    await userEvent.click(await screen.findByRole('button', { name: 'Log In' }));
    await screen.findByText('Redirecting...');
    expect(ssoStart.calls[0]!.url.searchParams.has('redirect_to')).toBe(false);
    expect(ssoStart.calls[0]!.url.searchParams.has('prompt')).toBe(false);
  });

  it('shows Server Error when SSO cannot start and there is no main app', async () => {
    mockSignedOutApp();
    mockEndpoint(authEndpoints.ssoStart, errorReply(500, 'OIDC issuer unreachable', 'internal'));
    renderApp('/');
    await userEvent.click(await screen.findByRole('button', { name: 'Log In' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Server Error: OIDC issuer unreachable');
  });

  it.each([
    [
      'no SSO address',
      () => ({ sso_url: '', callback_url: '' }),
      'Server Error: No SSO URL returned from backend.',
    ],
    [
      'a refused request',
      () => errorReply(400, 'redirect_to must be a path', 'bad_request'),
      'redirect_to must be a path',
    ],
    ['no network', () => Response.error(), 'Network Error'],
  ])('on %s says so, with Server Error only for the server', async (_case, answer, expected) => {
    mockSignedOutApp();
    mockEndpoint(authEndpoints.ssoStart, answer);
    renderApp('/');
    await userEvent.click(await screen.findByRole('button', { name: 'Log In' }));
    expect((await screen.findByRole('alert')).textContent).toBe(expected);
    expect(screen.getByRole('button', { name: 'Log In' })).toBeTruthy();
  });

  it("goes to the main app's login when SSO cannot start and main_app_url is set", async () => {
    mockSignedOutApp();
    mockEndpoint(systemEndpoints.publicConfig, { ...CONFIG, main_app_url: 'https://main.test/' });
    mockEndpoint(authEndpoints.ssoStart, { sso_url: '', callback_url: '' });
    renderApp('/');
    await screen.findByText('Demo mode — simulated Reddit');
    await userEvent.click(screen.getByRole('button', { name: 'Log In' }));
    await screen.findByText('Redirecting...');
    expect(pageLoads.left[0]).toMatch(/^https:\/\/main\.test\/login\?redirect=http/);
  });

  it('lets an authenticated subscriber into the workspace', async () => {
    setToken(makeToken());
    mockSignedOutApp();
    renderApp('/');
    expect(await screen.findByRole('button', { name: 'Create Your First Project' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Logout' })).toBeTruthy();
  });

  it('sends a user without a subscription to /subscribe', async () => {
    setToken(makeToken({ profiles_limit: 0 }));
    mockSignedOutApp();
    mockEndpoint(billingEndpoints.availablePlans, []);
    renderApp('/');
    expect(await screen.findByText('Choose a plan')).toBeTruthy();
    expect(testLocation()).toBe('/subscribe');
  });

  it('sends a customer whose plan ended since their token was issued to /subscribe', async () => {
    // The server knows the plan is gone; the token still carries the old limit until it is refreshed.
    const { refreshed, refresh } = planChangedSinceToken('7c1e4a52-9b3d-4f08-a6e2-5d8c0b1f9e47', {
      token: 3,
      server: 0,
      projectsUsed: 1,
    });
    renderApp('/');
    expect(await screen.findByText('Choose a plan')).toBeTruthy();
    expect(testLocation()).toBe('/subscribe');
    expect(refresh.calls).toHaveLength(1);
    expect(getToken()).toBe(refreshed);
  });

  it('lets in a customer whose plan began in another browser since their token was issued', async () => {
    const { refreshed, refresh } = planChangedSinceToken('2b6f0c1e-8d4a-4e7b-9c3f-1a5d7e9b2c40', {
      token: 0,
      server: 1,
      projectsUsed: 0,
    });
    mockEndpoint(billingEndpoints.userSubscription, ({ params }) =>
      buildUserSubscription({ user_id: params.userId }),
    );
    // The token sends them to /subscribe, where the server's answer refreshes it: the gate then lets them in.
    const first = renderApp('/');
    await waitFor(() => expect(refresh.calls).toHaveLength(1));
    await waitFor(() => expect(getToken()).toBe(refreshed));
    first.unmount();
    renderApp('/');
    expect(await screen.findByRole('button', { name: 'Create Your First Project' })).toBeTruthy();
    expect(getToken()).toBe(refreshed);
  });

  it('sends an open workspace to /subscribe within a minute of the plan ending', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const lapsing = '5d2e9f10-3c4b-4a8e-b7d1-0f6a2c8e4b93';
      setToken(makeToken({ sub: lapsing, profiles_limit: 3 }));
      mockSignedOutApp();
      const server = { limit: 3 };
      mockEndpoint(usersEndpoints.me, () => ({
        user_id: lapsing,
        email: 'user@example.com',
        roles: ['USER'],
        profiles_limit: server.limit,
        projects_used: 0,
      }));
      const refreshed = makeToken({ sub: lapsing, profiles_limit: 0 });
      mockEndpoint(authEndpoints.refreshWithToken, refreshAnswer(refreshed, lapsing, 0));
      mockEndpoint(billingEndpoints.availablePlans, []);
      renderApp('/');
      expect(await screen.findByRole('button', { name: 'Create Your First Project' })).toBeTruthy();
      server.limit = 0;
      await advance(ME_REFRESH_MS);
      expect(await screen.findByText('Choose a plan')).toBeTruthy();
      expect(testLocation()).toBe('/subscribe');
    } finally {
      vi.useRealTimers();
    }
  });

  it('lets moderators without a subscription through', async () => {
    setToken(makeToken({ profiles_limit: 0, roles: ['MODERATOR'] }));
    mockSignedOutApp();
    renderApp('/');
    expect(await screen.findByRole('button', { name: 'Create Your First Project' })).toBeTruthy();
  });

  it('does not gate subscription paths', async () => {
    mockSignedOutApp();
    renderApp('/subscribe/cancel');
    expect(await screen.findByText('Payment canceled')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to plans' }).getAttribute('href')).toBe('/subscribe');
  });

  it('shows Access Denied on /credentials and /stats for non-moderators', async () => {
    setToken(makeToken());
    mockSignedOutApp();
    renderApp('/credentials');
    expect(
      await screen.findByText(
        'Access Denied - This page is only accessible to administrators and moderators.',
      ),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to Dashboard' })).toBeTruthy();
  });

  it('after a failed refresh, /login returns to the redirect target once signed in', async () => {
    mockSignedOutApp();
    setToken(makeToken());
    renderApp('/login?redirect=%2Flogs');
    expect(await screen.findByText(ACCESS_DENIED_TEXT)).toBeTruthy();
    expect(testLocation()).toBe('/logs');
  });
});

describe('v3 direct login', () => {
  it('logs in with ?v3=, stores the token and removes v3 from the address', async () => {
    const token = makeToken({ roles: ['MODERATOR'] });
    mockSignedOutApp();
    const v3Login = mockEndpoint(authEndpoints.v3Login, {
      token,
      user: { user_id: 'm', email: 'm@x', profiles_limit: 0 },
      redirect_url: '/',
    });
    renderApp('/?v3=abc&tab=1');
    expect(await screen.findByRole('button', { name: 'Create Your First Project' })).toBeTruthy();
    expect(getToken()).toBe(token);
    expect(testLocation()).toBe('/?tab=1');
    expect(v3Login.calls).toHaveLength(1);
  });

  it("alerts 'V3 Login Error: {detail}' and stays unauthenticated", async () => {
    mockSignedOutApp();
    mockEndpoint(authEndpoints.v3Login, errorReply(401, 'Login link already used', 'unauthorized'));
    renderApp('/?v3=used-token');
    expect((await screen.findByRole('alert')).textContent).toBe('V3 Login Error: Login link already used');
    expect(screen.getByText('Authentication Required')).toBeTruthy();
    expect(testLocation()).toBe('/');
  });

  it("uses 'HTTP {status}: {statusText}' without a detail", async () => {
    mockSignedOutApp();
    mockEndpoint(
      authEndpoints.v3Login,
      new HttpResponse(null, { status: 503, statusText: 'Service Unavailable' }),
    );
    renderApp('/?v3=t-503');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'V3 Login Error: HTTP 503: Service Unavailable',
    );
  });
});

describe('SSO callback', () => {
  const okBody = (token: string, extra: Partial<TAuthTokenResponse> = {}): TAuthTokenResponse => ({
    token,
    refresh_token: null,
    user: { user_id: 'user-1', email: 'user@example.com', profiles_limit: 3 },
    expires_at: '2030-01-01T00:00:00Z',
    refresh_expires_at: '2030-01-02T00:00:00Z',
    redirect_url: '/logs',
    requires_subscription: false,
    subscribe_url: '/subscribe',
    ...extra,
  });

  it('(d) stores the token and goes to redirect_url', async () => {
    const token = makeToken();
    mockSignedOutApp();
    const callback = mockEndpoint(authEndpoints.callback, okBody(token));
    renderApp('/auth/callback?ver=v-d&redirect_to=%2Flogs&add=1&v2=z');
    expect(await screen.findByText(ACCESS_DENIED_TEXT)).toBeTruthy();
    expect(getToken()).toBe(token);
    expect(callback.calls[0]!.query).toEqual({ ver: 'v-d', redirect_to: '/logs', add: '1', v2: 'z' });
  });

  it('(a) 402 goes to subscribe_url', async () => {
    mockSignedOutApp();
    mockEndpoint(
      authEndpoints.callback,
      errorReply(402, 'Subscription required', 'payment_required', {
        requires_subscription: true,
        subscribe_url: '/subscribe',
      }),
    );
    mockEndpoint(billingEndpoints.availablePlans, []);
    renderApp('/auth/callback?ver=v-a');
    expect(await screen.findByText('Choose a plan')).toBeTruthy();
    expect(getToken()).toBeNull();
  });

  it('(b) 500 shows the server error', async () => {
    mockSignedOutApp();
    mockEndpoint(authEndpoints.callback, errorReply(500, 'Payment provider is not configured', 'internal'));
    renderApp('/auth/callback?ver=v-b');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Server Error: Payment provider is not configured',
    );
  });

  it('(c) OK with requires_subscription stores the token and goes to subscribe_url', async () => {
    const token = makeToken({ profiles_limit: 0 });
    mockSignedOutApp();
    mockEndpoint(authEndpoints.callback, okBody(token, { requires_subscription: true }));
    mockEndpoint(billingEndpoints.availablePlans, []);
    renderApp('/auth/callback?ver=v-c');
    expect(await screen.findByText('Choose a plan')).toBeTruthy();
    expect(getToken()).toBe(token);
  });

  it('(e) OK without a token is an error and shows the login screen', async () => {
    mockSignedOutApp();
    mockEndpoint(authEndpoints.callback, okBody(''));
    renderApp('/auth/callback?ver=v-e');
    expect((await screen.findByRole('alert')).textContent).toBe('No JWT token received from SSO callback.');
    expect(screen.getByRole('button', { name: 'Log In' })).toBeTruthy();
  });

  describe('a link spent already, as when the page is reloaded after signing in', () => {
    const spent = () =>
      errorReply(
        400,
        'This sign-in link has expired or was already used. Please log in again.',
        'sso_state_invalid',
      );

    it('goes on to / for whoever holds a token that has not expired', async () => {
      setToken(makeToken());
      mockSignedOutApp();
      const callback = mockEndpoint(authEndpoints.callback, spent());
      renderApp('/auth/callback?ver=v-spent-token');
      expect(await screen.findByRole('button', { name: 'Create Your First Project' })).toBeTruthy();
      expect(testLocation()).toBe('/');
      expect(callback.calls).toHaveLength(1);
      expect(screen.queryByText(/expired or was already used/)).toBeNull();
    });

    it('goes on to / when the refresh cookie restores the session', async () => {
      const token = makeToken();
      leaveSessionHint();
      mockSignedOutApp();
      mockEndpoint(authEndpoints.callback, spent());
      const refresh = mockEndpoint(authEndpoints.refreshWithToken, okBody(token, { redirect_url: '/' }));
      renderApp('/auth/callback?ver=v-spent-cookie');
      expect(await screen.findByRole('button', { name: 'Create Your First Project' })).toBeTruthy();
      expect(testLocation()).toBe('/');
      expect(refresh.calls).toHaveLength(1);
      expect(getToken()).toBe(token);
    });

    it('says so to someone with no session, whose token expired', async () => {
      setToken(makeToken({ exp: Math.floor(Date.now() / 1000) - 60 }));
      mockSignedOutApp();
      mockEndpoint(authEndpoints.callback, spent());
      renderApp('/auth/callback?ver=v-spent-none');
      expect((await screen.findByRole('alert')).textContent).toBe(
        'This sign-in link has expired or was already used. Please log in again.',
      );
      expect(screen.getByText('Authentication Required')).toBeTruthy();
      expect(testLocation()).toBe('/auth/callback?ver=v-spent-none');
    });
  });

  it('needs the ver parameter', async () => {
    mockSignedOutApp();
    renderApp('/auth/callback');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Missing SSO callback parameters (ver token).',
    );
  });
});
