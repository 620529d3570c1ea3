import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonResponse, mockApi, type TMockHandler } from '../../../test/fetch-mock';
import { renderApp, testLocation } from '../../../test/render-app';
import { makeToken } from '../../../test/tokens';
import { getToken, setToken } from '../../../lib/token-storage';
import type * as NavigationModule from '../../../lib/navigation';

const external = vi.hoisted(() => ({ assigned: [] as string[] }));
vi.mock('../../../lib/navigation', async (importOriginal) => {
  const real = await importOriginal<typeof NavigationModule>();
  return {
    ...real,
    navigateTo: (to: string, options?: { replace?: boolean }) => {
      if (to.startsWith('/') && !to.startsWith('//')) real.navigateTo(to, options);
      else external.assigned.push(to);
    },
    reloadPage: vi.fn(),
  };
});

const CONFIG = { demo_mode: true, main_app_url: null, support_chat_script_url: null };
const EMPTY_PROJECTS = { items: [], total: 0, limit: 500, offset: 0 };

function api(extra: Record<string, TMockHandler | [number, unknown?]> = {}) {
  return mockApi({
    'GET /public-config': [200, CONFIG],
    'POST /auth/refresh-with-token': [401, { detail: 'No refresh cookie', code: 'unauthorized' }],
    'GET /me': [
      200,
      { user_id: 'user-1', email: 'user@example.com', roles: ['USER'], profiles_limit: 3, projects_used: 0 },
    ],
    'GET /projects': [200, EMPTY_PROJECTS],
    ...extra,
  });
}

beforeEach(() => {
  external.assigned.length = 0;
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => vi.unstubAllGlobals());

describe('authentication gate', () => {
  it('shows the checking spinner, then the login screen when no session can be restored', async () => {
    let releaseRefresh!: () => void;
    api({
      'POST /auth/refresh-with-token': () =>
        new Promise((resolve) => {
          releaseRefresh = () => resolve(jsonResponse(401, { detail: 'x', code: 'unauthorized' }));
        }),
    });
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
    api({ 'POST /auth/refresh-with-token': [200, { token: makeToken(), refresh_token: null }] });
    renderApp('/');
    expect(await screen.findByRole('button', { name: 'Create Your First Project' })).toBeTruthy();
  });

  it('Log In starts SSO with the current address and shows Redirecting...', async () => {
    const { callsTo } = api({
      'GET /auth/sso/start': [
        200,
        { sso_url: 'http://idp.test/authorize?x=1', callback_url: '/auth/callback' },
      ],
    });
    renderApp('/logs?level=ERROR');
    await userEvent.click(await screen.findByRole('button', { name: 'Log In' }));
    expect(await screen.findByText('Redirecting...')).toBeTruthy();
    expect(callsTo('GET /auth/sso/start')[0]!.url.searchParams.get('redirect_to')).toBe('/logs?level=ERROR');
    expect(external.assigned).toEqual(['http://idp.test/authorize?x=1']);
  });

  it('does not send redirect_to from the root page', async () => {
    const { callsTo } = api({
      'GET /auth/sso/start': [200, { sso_url: 'http://idp.test/a', callback_url: '' }],
    });
    renderApp('/');
    await userEvent.click(await screen.findByRole('button', { name: 'Log In' }));
    await screen.findByText('Redirecting...');
    expect(callsTo('GET /auth/sso/start')[0]!.url.searchParams.has('redirect_to')).toBe(false);
  });

  it('shows Server Error when SSO cannot start and there is no main app', async () => {
    api({ 'GET /auth/sso/start': [500, { detail: 'OIDC issuer unreachable', code: 'internal' }] });
    renderApp('/');
    await userEvent.click(await screen.findByRole('button', { name: 'Log In' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Server Error: OIDC issuer unreachable');
  });

  it("goes to the main app's login when SSO cannot start and main_app_url is set", async () => {
    api({
      'GET /public-config': [200, { ...CONFIG, main_app_url: 'https://main.test/' }],
      'GET /auth/sso/start': [200, {}],
    });
    renderApp('/');
    await screen.findByText('Demo mode — simulated Reddit');
    await userEvent.click(screen.getByRole('button', { name: 'Log In' }));
    await screen.findByText('Redirecting...');
    expect(external.assigned[0]).toMatch(/^https:\/\/main\.test\/login\?redirect=http/);
  });

  it('lets an authenticated subscriber into the workspace', async () => {
    setToken(makeToken());
    api();
    renderApp('/');
    expect(await screen.findByRole('button', { name: 'Create Your First Project' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Logout' })).toBeTruthy();
  });

  it('sends a user without a subscription to /subscribe', async () => {
    setToken(makeToken({ profiles_limit: 0 }));
    api();
    renderApp('/');
    expect(await screen.findByText('Choose a plan')).toBeTruthy();
    expect(testLocation()).toBe('/subscribe');
  });

  it('lets moderators without a subscription through', async () => {
    setToken(makeToken({ profiles_limit: 0, roles: ['MODERATOR'] }));
    api();
    renderApp('/');
    expect(await screen.findByRole('button', { name: 'Create Your First Project' })).toBeTruthy();
  });

  it('does not gate subscription paths', async () => {
    api();
    renderApp('/subscribe/cancel');
    expect(await screen.findByText('Payment canceled')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to plans' }).getAttribute('href')).toBe('/subscribe');
  });

  it('shows Access Denied on /credentials and /stats for non-moderators', async () => {
    setToken(makeToken());
    api();
    renderApp('/credentials');
    expect(
      await screen.findByText(
        'Access Denied - This page is only accessible to administrators and moderators.',
      ),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to Dashboard' })).toBeTruthy();
  });

  it('after a failed refresh, /login returns to the redirect target once signed in', async () => {
    api();
    setToken(makeToken());
    renderApp('/login?redirect=%2Flogs');
    expect(await screen.findByText('System Logs')).toBeTruthy();
    expect(testLocation()).toBe('/logs');
  });
});

describe('v3 direct login', () => {
  it('logs in with ?v3=, stores the token and removes v3 from the address', async () => {
    const token = makeToken({ roles: ['MODERATOR'] });
    const { callsTo } = api({
      'GET /auth/v3-login': [
        200,
        { token, user: { user_id: 'm', email: 'm@x', profiles_limit: 0 }, redirect_url: '/' },
      ],
    });
    renderApp('/?v3=abc&tab=1');
    expect(await screen.findByRole('button', { name: 'Create Your First Project' })).toBeTruthy();
    expect(getToken()).toBe(token);
    expect(testLocation()).toBe('/?tab=1');
    expect(callsTo('GET /auth/v3-login')).toHaveLength(1);
  });

  it("alerts 'V3 Login Error: {detail}' and stays unauthenticated", async () => {
    api({ 'GET /auth/v3-login': [401, { detail: 'Login link already used', code: 'unauthorized' }] });
    renderApp('/?v3=used-token');
    expect((await screen.findByRole('alert')).textContent).toBe('V3 Login Error: Login link already used');
    expect(screen.getByText('Authentication Required')).toBeTruthy();
    expect(testLocation()).toBe('/');
  });

  it("uses 'HTTP {status}: {statusText}' without a detail", async () => {
    api({ 'GET /auth/v3-login': () => jsonResponse(503, undefined, 'Service Unavailable') });
    renderApp('/?v3=t-503');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'V3 Login Error: HTTP 503: Service Unavailable',
    );
  });
});

describe('SSO callback', () => {
  const okBody = (token: string, extra: object = {}) => ({
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
    const { callsTo } = api({ 'GET /auth/callback': [200, okBody(token)] });
    renderApp('/auth/callback?ver=v-d&redirect_to=%2Flogs&add=1&v2=z');
    expect(await screen.findByText('System Logs')).toBeTruthy();
    expect(getToken()).toBe(token);
    const query = callsTo('GET /auth/callback')[0]!.url.searchParams;
    expect([query.get('ver'), query.get('redirect_to'), query.get('add'), query.get('v2')]).toEqual([
      'v-d',
      '/logs',
      '1',
      'z',
    ]);
  });

  it('(a) 402 goes to subscribe_url', async () => {
    api({
      'GET /auth/callback': [
        402,
        {
          detail: 'Subscription required',
          code: 'payment_required',
          requires_subscription: true,
          subscribe_url: '/subscribe',
        },
      ],
    });
    renderApp('/auth/callback?ver=v-a');
    expect(await screen.findByText('Choose a plan')).toBeTruthy();
    expect(getToken()).toBeNull();
  });

  it('(b) 500 shows the server error', async () => {
    api({ 'GET /auth/callback': [500, { detail: 'Payment provider is not configured', code: 'internal' }] });
    renderApp('/auth/callback?ver=v-b');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Server Error: Payment provider is not configured',
    );
  });

  it('(c) OK with requires_subscription stores the token and goes to subscribe_url', async () => {
    const token = makeToken({ profiles_limit: 0 });
    api({ 'GET /auth/callback': [200, okBody(token, { requires_subscription: true })] });
    renderApp('/auth/callback?ver=v-c');
    expect(await screen.findByText('Choose a plan')).toBeTruthy();
    expect(getToken()).toBe(token);
  });

  it('(e) OK without a token is an error and shows the login screen', async () => {
    api({ 'GET /auth/callback': [200, { ...okBody(''), token: '' }] });
    renderApp('/auth/callback?ver=v-e');
    expect((await screen.findByRole('alert')).textContent).toBe('No JWT token received from SSO callback.');
    expect(screen.getByRole('button', { name: 'Log In' })).toBeTruthy();
  });

  it('needs the ver parameter', async () => {
    api();
    renderApp('/auth/callback');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Missing SSO callback parameters (ver token).',
    );
  });
});
