import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { delay, HttpResponse } from 'msw';
import {
  authEndpoints,
  credentialsEndpoints,
  leadsEndpoints,
  projectsEndpoints,
  usersEndpoints,
  type TMeResponse,
  type TProject,
  type TRefreshResponse,
} from '@threadreach/contract';
import { errorReply, mockEndpoint, sentRequests } from '../test/api-mock.test-support';
import { makeToken } from '../test/tokens';
import { call, download, receivedText } from './api-client';
import { ApiError, ContractMismatchError } from './api-error';
import { setSsoProcessing, clearSsoProcessingLater, isSsoProcessing } from './auth-session';
import { getToken, setToken } from './token-storage';
import { registerNavigator } from './navigation';
import { recordPageLoads } from '../test/navigation.test-support';

// Where the router would take an in-app path; this file mounts none.
const inAppNavigation = vi.fn<(to: string, options?: { replace?: boolean }) => void>();
let unregisterNavigator = () => {};
let pageLoads: ReturnType<typeof recordPageLoads>;

beforeEach(() => {
  inAppNavigation.mockReset();
  unregisterNavigator = registerNavigator(inAppNavigation);
  pageLoads = recordPageLoads();
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});

afterEach(() => {
  unregisterNavigator();
  setSsoProcessing(false);
  vi.useRealTimers();
});

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

const PROJECT_ID = '0d9a3c52-6f4e-4b1a-9c3d-5e6f7a8b9c0d';
const CREDENTIAL_ID = '3f2a9c1e-5b7d-4e8f-9a0b-1c2d3e4f5a6b';

const PROJECT: TProject = {
  id: PROJECT_ID,
  user_id: 'user-1',
  name: 'A',
  description: null,
  without_keywords: false,
  created_at: '2030-01-01T00:00:00Z',
  updated_at: '2030-01-01T00:00:00Z',
};

const me = (userId = 'user-1'): TMeResponse => ({
  user_id: userId,
  email: 'user@example.com',
  roles: ['USER'],
  profiles_limit: 3,
  projects_used: 0,
});

const refreshed = (token: string): TRefreshResponse => ({
  token,
  refresh_token: null,
  user: { user_id: 'user-1', email: 'user@example.com', profiles_limit: 3 },
  expires_at: '2030-01-01T00:00:00Z',
  refresh_expires_at: '2030-01-02T00:00:00Z',
  redirect_url: '/',
  requires_subscription: false,
  subscribe_url: '/subscribe',
});

const expired = () => errorReply(401, 'expired', 'unauthorized');

describe('call', () => {
  it('fills the path parameters and returns the answer', async () => {
    const get = mockEndpoint(projectsEndpoints.get, ({ params }) => ({ ...PROJECT, id: params.projectId }));
    await expect(call(projectsEndpoints.get, { params: { projectId: PROJECT_ID } })).resolves.toEqual(
      PROJECT,
    );
    expect(get.calls[0]!.params).toEqual({ projectId: PROJECT_ID });
    expect(get.calls[0]!.url.pathname.endsWith(`/projects/${PROJECT_ID}`)).toBe(true);
  });

  it('sends the query without empty values', async () => {
    const list = mockEndpoint(credentialsEndpoints.list, { items: [], total: 0, limit: 20, offset: 40 });
    await call(credentialsEndpoints.list, {
      query: { include_disabled: 'true', credential_type: undefined, limit: 20, offset: 40 },
    });
    expect(list.calls[0]!.url.search).toBe('?include_disabled=true&limit=20&offset=40');
    expect(list.calls[0]!.query).toEqual({ include_disabled: true, limit: 20, offset: 40 });
  });

  it('sends JSON with the bearer token and credentials', async () => {
    const token = makeToken();
    setToken(token);
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    const create = mockEndpoint(projectsEndpoints.create, PROJECT);
    await expect(call(projectsEndpoints.create, { body: { name: 'A' } })).resolves.toEqual(PROJECT);
    const sent = create.calls[0]!;
    expect(sent.headers.get('Authorization')).toBe(`Bearer ${token}`);
    expect(sent.headers.get('Content-Type')).toBe('application/json');
    expect(fetchSpy.mock.calls[0]![1]!.credentials).toBe('include');
    expect(sent.rawBody).toEqual({ name: 'A' });
  });

  it('sends no body when the endpoint takes none, and resolves a 204 to nothing', async () => {
    const test = mockEndpoint(credentialsEndpoints.test, {
      can_connect: true,
      response_time_ms: 5,
      error: null,
    });
    mockEndpoint(projectsEndpoints.delete, undefined);
    await call(credentialsEndpoints.test, { params: { id: CREDENTIAL_ID } });
    expect(test.calls[0]!.rawBody).toBeUndefined();
    expect(test.calls[0]!.headers.has('Content-Type')).toBe(false);
    await expect(
      call(projectsEndpoints.delete, { params: { projectId: PROJECT_ID } }),
    ).resolves.toBeUndefined();
  });

  it('refuses an answer that does not match the contract', async () => {
    mockEndpoint(usersEndpoints.me, HttpResponse.json({ user_id: 7, email: 'a@b' }));
    const error = await call(usersEndpoints.me).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContractMismatchError);
    expect((error as Error).message).toMatch(
      /^GET \S+\/me answered 200 with a body its contract does not allow: /,
    );
    expect((error as Error).message).toContain('user_id');
  });

  it('refuses a success status that the contract does not declare', async () => {
    mockEndpoint(projectsEndpoints.create, HttpResponse.json(PROJECT, { status: 200 }));
    await expect(call(projectsEndpoints.create, { body: { name: 'A' } })).rejects.toThrow(
      /answered 200, a status its contract does not declare/,
    );
  });

  it('is typed by the contract', () => {
    // Checked by the type checker only: the calls are never made.
    const typeChecks = () => [
      // @ts-expect-error the project id is required
      call(projectsEndpoints.get),
      // @ts-expect-error the body must be a project request
      call(projectsEndpoints.create, { body: { title: 'A' } }),
      // @ts-expect-error `enabled` travels as text
      call(credentialsEndpoints.setEnabled, { params: { id: CREDENTIAL_ID }, query: { enabled: true } }),
    ];
    expect(typeChecks).toBeTypeOf('function');
  });
});

describe('API client sessions and errors', () => {
  it('on concurrent 401s refreshes once and retries each request once with the new token', async () => {
    const oldToken = makeToken({ sub: 'old' });
    const newToken = makeToken({ sub: 'new' });
    setToken(oldToken);
    const refreshGate = deferred<void>();
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    const fresh = (request: Request) => request.headers.get('Authorization') === `Bearer ${newToken}`;
    const getMe = mockEndpoint(usersEndpoints.me, ({ request }) => (fresh(request) ? me('new') : expired()));
    const list = mockEndpoint(projectsEndpoints.list, ({ request }) =>
      fresh(request) ? { items: [], total: 0, limit: 100, offset: 0 } : expired(),
    );
    const refresh = mockEndpoint(authEndpoints.refreshWithToken, async () => {
      await refreshGate.promise;
      return refreshed(newToken);
    });

    const results = Promise.all([
      call(usersEndpoints.me),
      call(projectsEndpoints.list),
      call(usersEndpoints.me),
    ]);
    await vi.waitFor(() => expect(refresh.calls).toHaveLength(1));
    // Every first attempt has had its 401 before the refresh answers.
    await Promise.all(fetchSpy.mock.results.slice(0, 3).map((result) => result.value));
    await new Promise((resolve) => setImmediate(resolve));
    refreshGate.resolve();

    await expect(results).resolves.toEqual([
      me('new'),
      { items: [], total: 0, limit: 100, offset: 0 },
      me('new'),
    ]);
    expect(refresh.calls).toHaveLength(1);
    expect(getMe.calls).toHaveLength(4);
    expect(list.calls).toHaveLength(2);
    expect(fetchSpy.mock.calls.every(([, init]) => init?.credentials === 'include')).toBe(true);
    expect(getToken()).toBe(newToken);
  });

  it('retries only once: a second 401 is an error', async () => {
    setToken(makeToken({ sub: 'old' }));
    const getMe = mockEndpoint(usersEndpoints.me, errorReply(401, 'nope', 'unauthorized'));
    const refresh = mockEndpoint(authEndpoints.refreshWithToken, refreshed(makeToken({ sub: 'new' })));
    await expect(call(usersEndpoints.me)).rejects.toMatchObject({ status: 401 });
    expect(getMe.calls).toHaveLength(2);
    expect(refresh.calls).toHaveLength(1);
  });

  it('logs out and goes to the login page with a redirect when the refresh fails', async () => {
    window.history.replaceState(null, '', '/some/page?x=1');
    setToken(makeToken());
    mockEndpoint(usersEndpoints.me, expired());
    mockEndpoint(authEndpoints.refreshWithToken, errorReply(401, 'no cookie', 'unauthorized'));
    const logout = mockEndpoint(authEndpoints.logout, undefined);
    await expect(call(usersEndpoints.me)).rejects.toBeInstanceOf(ApiError);
    expect(getToken()).toBeNull();
    expect(inAppNavigation).toHaveBeenCalledWith(`/login?redirect=${encodeURIComponent('/some/page?x=1')}`, {
      replace: true,
    });
    await vi.waitFor(() => expect(logout.calls).toHaveLength(1));
    window.history.replaceState(null, '', '/');
  });

  it('refreshes a near-expiry token once before concurrent requests', async () => {
    const expiring = makeToken({ exp: Math.floor(Date.now() / 1000) + 60 });
    const fresh = makeToken({ sub: 'fresh' });
    setToken(expiring);
    const refresh = mockEndpoint(authEndpoints.refreshWithToken, refreshed(fresh));
    const getMe = mockEndpoint(usersEndpoints.me, me());
    await Promise.all([call(usersEndpoints.me), call(usersEndpoints.me)]);
    expect(refresh.calls).toHaveLength(1);
    expect(getMe.calls.map((c) => c.headers.get('Authorization'))).toEqual([
      `Bearer ${fresh}`,
      `Bearer ${fresh}`,
    ]);
  });

  it('asks for no other refresh of a near-expiry token once the server refused one, until it expires', async () => {
    window.history.replaceState(null, '', '/some/page');
    const expiring = makeToken({ exp: Math.floor(Date.now() / 1000) + 60 });
    setToken(expiring);
    const refresh = mockEndpoint(
      authEndpoints.refreshWithToken,
      errorReply(401, 'no cookie', 'unauthorized'),
    );
    let valid = true;
    const getMe = mockEndpoint(usersEndpoints.me, () => (valid ? me() : expired()));
    for (let i = 0; i < 3; i++) await call(usersEndpoints.me);
    expect(refresh.calls).toHaveLength(1);
    expect(getMe.calls.map((c) => c.headers.get('Authorization'))).toEqual(
      Array(3).fill(`Bearer ${expiring}`),
    );
    // Once it has expired, the first 401 goes to the login page without asking again.
    valid = false;
    mockEndpoint(authEndpoints.logout, undefined);
    await expect(call(usersEndpoints.me)).rejects.toMatchObject({ status: 401 });
    expect(refresh.calls).toHaveLength(1);
    expect(getToken()).toBeNull();
    expect(inAppNavigation).toHaveBeenCalledWith(`/login?redirect=${encodeURIComponent('/some/page')}`, {
      replace: true,
    });
    window.history.replaceState(null, '', '/');
  });

  it("takes another tab's new token when that tab spent the shared refresh cookie first", async () => {
    const fresh = makeToken({ sub: 'refreshed-elsewhere' });
    setToken(makeToken({ sub: 'old' }));
    const getMe = mockEndpoint(usersEndpoints.me, ({ request }) =>
      request.headers.get('Authorization') === `Bearer ${fresh}` ? me() : expired(),
    );
    // The other tab's refresh rotated the cookie and stored its token; this tab's refresh is refused.
    mockEndpoint(authEndpoints.refreshWithToken, () => {
      localStorage.setItem('authToken', fresh);
      return errorReply(401, 'Refresh token is invalid or expired. Please log in again.', 'unauthorized');
    });
    await expect(call(usersEndpoints.me)).resolves.toMatchObject({ email: 'user@example.com' });
    expect(getMe.calls).toHaveLength(2);
    expect(inAppNavigation).not.toHaveBeenCalled();
    expect(pageLoads.left).toEqual([]);
  });

  it('refreshes in one tab at a time (Web Locks); a tab that waited uses the token the first one stored', async () => {
    // Two tabs: two copies of the session module, one storage, one lock manager.
    let held = Promise.resolve();
    const lockNames: string[] = [];
    const locks = {
      request: (name: string, callback: () => Promise<unknown>) => {
        lockNames.push(name);
        const run = held.then(callback);
        held = run.then(
          () => undefined,
          () => undefined,
        );
        return run;
      },
    };
    Object.defineProperty(navigator, 'locks', { value: locks, configurable: true });
    try {
      setToken(makeToken({ sub: 'old', exp: Math.floor(Date.now() / 1000) + 30 }));
      const fresh = makeToken({ sub: 'fresh' });
      const refresh = mockEndpoint(authEndpoints.refreshWithToken, async () => {
        await delay(20);
        return refreshed(fresh);
      });
      const tabA = await import('./auth-session');
      vi.resetModules();
      const tabB = await import('./auth-session');
      expect(tabB).not.toBe(tabA);
      const answers = await Promise.all([tabA.refreshAccessToken(), tabB.refreshAccessToken()]);
      expect(answers).toEqual([true, true]);
      expect(refresh.calls).toHaveLength(1);
      expect(getToken()).toBe(fresh);
      // One name for every tab: a lock is shared only by those that ask for the same one.
      expect(lockNames).toEqual([tabA.REFRESH_LOCK, tabA.REFRESH_LOCK]);
    } finally {
      Reflect.deleteProperty(navigator, 'locks');
    }
  });

  it('without Web Locks refreshes in each tab as before, each storing what its refresh answered', async () => {
    expect('locks' in navigator).toBe(false);
    setToken(makeToken({ sub: 'old', exp: Math.floor(Date.now() / 1000) + 30 }));
    const answers = [makeToken({ sub: 'first' }), makeToken({ sub: 'second' })];
    let served = 0;
    const refresh = mockEndpoint(authEndpoints.refreshWithToken, async () => {
      const token = answers[served++]!;
      await delay(20);
      return refreshed(token);
    });
    const tabA = await import('./auth-session');
    vi.resetModules();
    const tabB = await import('./auth-session');
    await expect(Promise.all([tabA.refreshAccessToken(), tabB.refreshAccessToken()])).resolves.toEqual([
      true,
      true,
    ]);
    expect(refresh.calls).toHaveLength(2);
    expect(answers).toContain(getToken());
  });

  it('removes a malformed token before the request', async () => {
    localStorage.setItem('authToken', 'garbage');
    const getMe = mockEndpoint(usersEndpoints.me, me());
    await call(usersEndpoints.me);
    expect(getMe.calls[0]!.headers.get('Authorization')).toBeNull();
    expect(localStorage.getItem('authToken')).toBeNull();
  });

  it('neither refreshes nor retries while SSO processing is flagged, until the delayed clear', async () => {
    vi.useFakeTimers();
    setToken(makeToken({ exp: Math.floor(Date.now() / 1000) + 10 }));
    const getMe = mockEndpoint(usersEndpoints.me, expired());
    setSsoProcessing(true);
    clearSsoProcessingLater();
    await expect(call(usersEndpoints.me)).rejects.toMatchObject({ status: 401 });
    expect(getMe.calls).toHaveLength(1);
    // No refresh handler: a refresh would fail the test as an unhandled request.
    expect(sentRequests()).toHaveLength(1);
    vi.advanceTimersByTime(999);
    expect(isSsoProcessing()).toBe(true);
    vi.advanceTimersByTime(1);
    expect(isSsoProcessing()).toBe(false);
  });

  it('maps 402 to the subscription message and goes to /subscribe after 100 ms', async () => {
    vi.useFakeTimers();
    setToken(makeToken());
    mockEndpoint(projectsEndpoints.create, errorReply(402, 'Subscription required', 'payment_required'));
    const error = await call(projectsEndpoints.create, { body: { name: 'x' } }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      status: 402,
      detail: 'Subscription required',
      message: 'This feature requires an active subscription. Please upgrade your account to continue.',
    });
    vi.advanceTimersByTime(99);
    expect(inAppNavigation).not.toHaveBeenCalled();
    expect(pageLoads.left).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(inAppNavigation).toHaveBeenCalledWith('/subscribe', {});
  });

  it('maps 403 by the endpoint', async () => {
    setToken(makeToken());
    mockEndpoint(projectsEndpoints.delete, errorReply(403, 'not yours', 'forbidden'));
    await expect(call(projectsEndpoints.delete, { params: { projectId: PROJECT_ID } })).rejects.toMatchObject(
      {
        status: 403,
        detail: 'not yours',
        message: "You don't have permission to delete this project. You can only delete your own projects.",
      },
    );
  });

  it.each([
    [{ detail: 'the detail', msg: 'm', message: 'x' }, 'the detail'],
    [{ msg: 'the msg', message: 'x' }, 'the msg'],
    [{ message: 'the message' }, 'the message'],
    [null, 'Request failed with status code 500'],
  ])('chooses the error message from %j', async (body, expected) => {
    mockEndpoint(
      usersEndpoints.me,
      body ? HttpResponse.json(body, { status: 500 }) : new HttpResponse(null, { status: 500 }),
    );
    await expect(call(usersEndpoints.me)).rejects.toMatchObject({ status: 500, message: expected });
  });

  it('reports network failures and timeouts with the client messages', async () => {
    mockEndpoint(usersEndpoints.me, HttpResponse.error());
    await expect(call(usersEndpoints.me)).rejects.toMatchObject({ status: 0, message: 'Network Error' });

    vi.useFakeTimers();
    mockEndpoint(usersEndpoints.me, async () => {
      await delay('infinite');
      return me();
    });
    const pending = call(usersEndpoints.me).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(30_000);
    await expect(pending).resolves.toMatchObject({ status: 0, message: 'timeout of 30000ms exceeded' });
  });
});

describe('download', () => {
  const csv = 'kind,title\npost,Any CRM?\n';

  const progress: number[] = [];
  const onProgress = (bytes: number) => progress.push(bytes);

  it('fetches a file with the bearer token and resolves its content, name and progress', async () => {
    const token = makeToken();
    setToken(token);
    const file = mockEndpoint(
      leadsEndpoints.exportCsv,
      () =>
        new HttpResponse(csv, {
          headers: {
            'Content-Type': 'text/csv',
            'Content-Disposition': 'attachment; filename="leads-a.csv"',
          },
        }),
    );
    progress.length = 0;
    const got = await download(leadsEndpoints.exportCsv, { params: { projectId: PROJECT_ID } }, onProgress);
    expect(await got.content.text()).toBe(csv);
    expect(got.content.type).toBe('text/csv');
    expect(got.fileName).toBe('leads-a.csv');
    expect(progress.at(-1)).toBe(csv.length);
    expect(file.calls[0]!.headers.get('Authorization')).toBe(`Bearer ${token}`);
  });

  it('refreshes on a 401 and maps errors like any call', async () => {
    const fresh = makeToken({ sub: 'fresh' });
    setToken(makeToken({ sub: 'old' }));
    mockEndpoint(leadsEndpoints.exportCsv, ({ request }) =>
      request.headers.get('Authorization') === `Bearer ${fresh}` ? new HttpResponse(csv) : expired(),
    );
    mockEndpoint(authEndpoints.refreshWithToken, refreshed(fresh));
    const got = await download(leadsEndpoints.exportCsv, { params: { projectId: PROJECT_ID } }, onProgress);
    expect(await got.content.text()).toBe(csv);

    mockEndpoint(leadsEndpoints.exportCsv, errorReply(404, 'Project not found', 'not_found'));
    await expect(
      download(leadsEndpoints.exportCsv, { params: { projectId: PROJECT_ID } }, onProgress),
    ).rejects.toMatchObject({ status: 404, message: 'Project not found' });
  });
});

describe('receivedText', () => {
  it('says KB under a megabyte, one decimal under ten, whole megabytes above', () => {
    expect(receivedText(0)).toBe('Exporting… 0 KB received');
    expect(receivedText(1536)).toBe('Exporting… 1 KB received');
    expect(receivedText(1.55 * 1024 * 1024)).toBe('Exporting… 1.6 MB received');
    expect(receivedText(123.9 * 1024 * 1024)).toBe('Exporting… 123 MB received');
  });
});
