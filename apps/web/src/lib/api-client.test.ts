import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockApi } from '../test/fetch-mock';
import { makeToken } from '../test/tokens';
import { api } from './api-client';
import { ApiError } from './api-error';
import { setSsoProcessing, clearSsoProcessingLater, isSsoProcessing } from './auth-session';
import { getToken, setToken } from './token-storage';
import type * as NavigationModule from './navigation';

const navigation = vi.hoisted(() => ({ navigateTo: vi.fn(), reloadPage: vi.fn() }));
vi.mock('./navigation', async (importOriginal) => {
  const real = await importOriginal<typeof NavigationModule>();
  return { ...real, navigateTo: navigation.navigateTo, reloadPage: navigation.reloadPage };
});

beforeEach(() => {
  navigation.navigateTo.mockReset();
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});

afterEach(() => {
  setSsoProcessing(false);
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('API client', () => {
  it('sends JSON with the bearer token and credentials', async () => {
    const token = makeToken();
    setToken(token);
    const { calls } = mockApi({ 'POST /projects': [201, { id: 'p1' }] });
    await expect(api.post('/projects', { name: 'A' })).resolves.toEqual({ id: 'p1' });
    const call = calls[0]!;
    expect(call.url.pathname).toBe('/api/v1/projects');
    expect(call.headers.get('Authorization')).toBe(`Bearer ${token}`);
    expect(call.headers.get('Content-Type')).toBe('application/json');
    expect(call.init.credentials).toBe('include');
    expect(call.body).toEqual({ name: 'A' });
  });

  it('on concurrent 401s refreshes once and retries each request once with the new token', async () => {
    const oldToken = makeToken({ sub: 'old' });
    const newToken = makeToken({ sub: 'new' });
    setToken(oldToken);
    const refreshGate = deferred<Response>();
    const { callsTo } = mockApi({
      'GET /me': (req) =>
        req.headers.get('Authorization') === `Bearer ${newToken}`
          ? jsonResponse(200, { user_id: 'new' })
          : jsonResponse(401, { detail: 'expired', code: 'unauthorized' }),
      'GET /projects': (req) =>
        req.headers.get('Authorization') === `Bearer ${newToken}`
          ? jsonResponse(200, { items: [] })
          : jsonResponse(401, { detail: 'expired', code: 'unauthorized' }),
      'POST /auth/refresh-with-token': () => refreshGate.promise,
    });

    const results = Promise.all([api.get('/me'), api.get('/projects'), api.get('/me')]);
    await vi.waitFor(() => expect(callsTo('POST /auth/refresh-with-token')).toHaveLength(1));
    refreshGate.resolve(jsonResponse(200, { token: newToken, refresh_token: null }));

    await expect(results).resolves.toEqual([{ user_id: 'new' }, { items: [] }, { user_id: 'new' }]);
    expect(callsTo('POST /auth/refresh-with-token')).toHaveLength(1);
    expect(callsTo('GET /me')).toHaveLength(4);
    expect(callsTo('GET /projects')).toHaveLength(2);
    expect(callsTo('POST /auth/refresh-with-token')[0]!.init.credentials).toBe('include');
    expect(getToken()).toBe(newToken);
  });

  it('retries only once: a second 401 is an error', async () => {
    setToken(makeToken({ sub: 'old' }));
    const { callsTo } = mockApi({
      'GET /me': [401, { detail: 'nope', code: 'unauthorized' }],
      'POST /auth/refresh-with-token': [200, { token: makeToken({ sub: 'new' }) }],
    });
    await expect(api.get('/me')).rejects.toMatchObject({ status: 401 });
    expect(callsTo('GET /me')).toHaveLength(2);
    expect(callsTo('POST /auth/refresh-with-token')).toHaveLength(1);
  });

  it('logs out and goes to the login page with a redirect when the refresh fails', async () => {
    window.history.replaceState(null, '', '/some/page?x=1');
    setToken(makeToken());
    const { callsTo } = mockApi({
      'GET /me': [401, { detail: 'expired', code: 'unauthorized' }],
      'POST /auth/refresh-with-token': [401, { detail: 'no cookie', code: 'unauthorized' }],
      'POST /auth/logout': [204],
    });
    await expect(api.get('/me')).rejects.toBeInstanceOf(ApiError);
    expect(getToken()).toBeNull();
    expect(navigation.navigateTo).toHaveBeenCalledWith(
      `/login?redirect=${encodeURIComponent('/some/page?x=1')}`,
      { replace: true },
    );
    await vi.waitFor(() => expect(callsTo('POST /auth/logout')).toHaveLength(1));
    window.history.replaceState(null, '', '/');
  });

  it('refreshes a near-expiry token once before concurrent requests', async () => {
    const expiring = makeToken({ exp: Math.floor(Date.now() / 1000) + 60 });
    const fresh = makeToken({ sub: 'fresh' });
    setToken(expiring);
    const { callsTo } = mockApi({
      'POST /auth/refresh-with-token': [200, { token: fresh }],
      'GET /me': (req) => jsonResponse(200, { auth: req.headers.get('Authorization') }),
    });
    const [a, b] = await Promise.all([api.get('/me'), api.get('/me')]);
    expect(callsTo('POST /auth/refresh-with-token')).toHaveLength(1);
    expect(a).toEqual({ auth: `Bearer ${fresh}` });
    expect(b).toEqual({ auth: `Bearer ${fresh}` });
  });

  it('removes a malformed token before the request', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    localStorage.setItem('authToken', 'garbage');
    const { calls } = mockApi({ 'GET /me': [200, {}] });
    await api.get('/me');
    expect(calls[0]!.headers.get('Authorization')).toBeNull();
    expect(localStorage.getItem('authToken')).toBeNull();
  });

  it('neither refreshes nor retries while SSO processing is flagged, until the delayed clear', async () => {
    vi.useFakeTimers();
    setToken(makeToken({ exp: Math.floor(Date.now() / 1000) + 10 }));
    const { callsTo } = mockApi({
      'GET /me': [401, { detail: 'expired', code: 'unauthorized' }],
      'POST /auth/refresh-with-token': [401, {}],
    });
    setSsoProcessing(true);
    clearSsoProcessingLater();
    await expect(api.get('/me')).rejects.toMatchObject({ status: 401 });
    expect(callsTo('POST /auth/refresh-with-token')).toHaveLength(0);
    expect(callsTo('GET /me')).toHaveLength(1);
    vi.advanceTimersByTime(999);
    expect(isSsoProcessing()).toBe(true);
    vi.advanceTimersByTime(1);
    expect(isSsoProcessing()).toBe(false);
  });

  it('maps 402 to the subscription message and goes to /subscribe after 100 ms', async () => {
    vi.useFakeTimers();
    setToken(makeToken());
    mockApi({ 'POST /projects': [402, { detail: 'Subscription required', code: 'payment_required' }] });
    const error = await api.post('/projects', { name: 'x' }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      status: 402,
      detail: 'Subscription required',
      message: 'This feature requires an active subscription. Please upgrade your account to continue.',
    });
    vi.advanceTimersByTime(99);
    expect(navigation.navigateTo).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(navigation.navigateTo).toHaveBeenCalledWith('/subscribe');
  });

  it('maps 403 by method and path', async () => {
    setToken(makeToken());
    mockApi({ 'DELETE /projects/p1': [403, { detail: 'not yours', code: 'forbidden' }] });
    await expect(api.delete('/projects/p1')).rejects.toMatchObject({
      status: 403,
      detail: 'not yours',
      message: "You don't have permission to delete this project. You can only delete your own projects.",
    });
  });

  it.each([
    [{ detail: 'the detail', msg: 'm', message: 'x' }, 'the detail'],
    [{ msg: 'the msg', message: 'x' }, 'the msg'],
    [{ message: 'the message' }, 'the message'],
    [null, 'Request failed with status code 500'],
  ])('chooses the error message from %j', async (body, expected) => {
    mockApi({ 'GET /x': [500, body ?? undefined] });
    await expect(api.get('/x')).rejects.toMatchObject({ status: 500, message: expected });
  });

  it('reports network failures and timeouts with the client messages', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('fetch failed')));
    await expect(api.get('/x')).rejects.toMatchObject({ status: 0, message: 'Network Error' });

    vi.useFakeTimers();
    vi.stubGlobal(
      'fetch',
      vi.fn(
        (_url: string, init: RequestInit) =>
          new Promise((_resolve, reject) =>
            init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
          ),
      ),
    );
    const pending = api.get('/slow').catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(30_000);
    await expect(pending).resolves.toMatchObject({ status: 0, message: 'timeout of 30000ms exceeded' });
  });
});
