import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type TestSim, basic, startTestSim } from './test-support';

let t: TestSim;
beforeEach(async () => {
  t = await startTestSim();
});
afterEach(async () => {
  await t.sim.close();
});

const consentQuery = (extra: Record<string, string> = {}) =>
  new URLSearchParams({
    client_id: 'consent-app',
    response_type: 'code',
    state: 'abc123',
    redirect_uri: 'http://localhost:3000/cb',
    duration: 'permanent',
    scope: 'identity privatemessages read',
    ...extra,
  }).toString();

describe('GET /api/v1/authorize', () => {
  it('shows a consent page with the app name, scopes, accounts and Approve / Deny', async () => {
    t.sim.registerClient({
      clientId: 'consent-app',
      clientSecret: 's',
      type: 'web',
      redirectUri: 'http://localhost:3000/cb',
      name: 'Threadreach',
    });
    const res = await t.get(`/api/v1/authorize?${consentQuery()}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    const page = await res.text();
    expect(page).toContain('Threadreach');
    for (const scope of ['identity', 'privatemessages', 'read']) expect(page).toContain(scope);
    expect(page).toContain('value="demo_founder"');
    expect(page).toContain('value="fresh_account"');
    expect(page).toContain('>Approve<');
    expect(page).toContain('>Deny<');
    // A newcomer is told this is the demo's Reddit, on a page styled for any screen.
    expect(page).toContain(
      '<p class="sim" role="note">Simulated Reddit: no real Reddit account is connected. Log in as one of the demo accounts below.</p>',
    );
    expect(page).toContain('name="viewport"');
    expect(page).toContain('<style>');
  });

  it('redirects with code and state on Approve, error=access_denied on Deny', async () => {
    const form = Object.fromEntries(new URLSearchParams(consentQuery()));
    const approve = await t.post('/api/v1/authorize', {
      ...form,
      username: 'demo_founder',
      authorize: 'Approve',
    });
    expect(approve.status).toBe(302);
    const ok = new URL(approve.headers.get('location') ?? '');
    expect(ok.origin + ok.pathname).toBe('http://localhost:3000/cb');
    expect(ok.searchParams.get('state')).toBe('abc123');
    expect(ok.searchParams.get('code')).toBeTruthy();

    const deny = await t.post('/api/v1/authorize', { ...form, username: 'demo_founder', authorize: 'Deny' });
    const denied = new URL(deny.headers.get('location') ?? '');
    expect(denied.searchParams.get('error')).toBe('access_denied');
    expect(denied.searchParams.get('state')).toBe('abc123');
    expect(denied.searchParams.get('code')).toBeNull();
  });

  it('rejects a redirect_uri that differs from the registered one, and unknown clients when not accepting any', async () => {
    t.sim.registerClient({
      clientId: 'fixed',
      clientSecret: 's',
      type: 'web',
      redirectUri: 'http://good/cb',
    });
    const res = await t.get(
      `/api/v1/authorize?${consentQuery({ client_id: 'fixed', redirect_uri: 'http://evil/cb' })}`,
    );
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('redirect_uri');

    const strict = await startTestSim({ acceptAnyClient: false });
    try {
      const unknown = await strict.get(`/api/v1/authorize?${consentQuery()}`);
      expect(unknown.status).toBe(400);
      expect(await unknown.text()).toContain('invalid client id');
    } finally {
      await strict.sim.close();
    }
  });

  it('reports a bad scope back to the redirect_uri', async () => {
    const res = await t.get(`/api/v1/authorize?${consentQuery({ scope: 'read nonsense' })}`);
    expect(res.status).toBe(302);
    expect(new URL(res.headers.get('location') ?? '').searchParams.get('error')).toBe('invalid_scope');
  });
});

describe('POST /api/v1/access_token', () => {
  it('authorization_code with duration=permanent issues a refresh token; temporary does not', async () => {
    const permanent = await t.userToken({ duration: 'permanent' });
    expect(permanent).toMatchObject({ token_type: 'bearer', expires_in: 86_400 });
    expect(permanent.scope.split(' ').sort()).toEqual(['history', 'identity', 'privatemessages', 'read']);
    expect(permanent.refresh_token).toBeTruthy();

    const temporary = await t.userToken({ duration: 'temporary' });
    expect(temporary.access_token).toBeTruthy();
    expect(temporary.refresh_token).toBeUndefined();
  });

  it('refresh_token grant issues a fresh access token', async () => {
    const first = await t.userToken({ duration: 'permanent' });
    t.clock.advance(25 * 3600_000);
    expect((await t.get('/api/v1/me', first.access_token)).status).toBe(401);
    const res = await t.post(
      '/api/v1/access_token',
      { grant_type: 'refresh_token', refresh_token: first.refresh_token ?? '' },
      undefined,
      { authorization: basic('test-web-app', 'web-secret') },
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as { access_token: string; token_type: string; expires_in: number };
    expect(body.token_type).toBe('bearer');
    expect(body.expires_in).toBe(86_400);
    expect((await t.get('/api/v1/me', body.access_token)).status).toBe(200);
  });

  it('keeps the refresh tokens it grants in a file, when given one, so they work after a restart', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'reddit-sim-grants-'));
    const grantsFile = path.join(dir, 'grants.json');
    const refresh = (sim: TestSim, token: string) =>
      sim.post('/api/v1/access_token', { grant_type: 'refresh_token', refresh_token: token }, undefined, {
        authorization: basic('test-web-app', 'web-secret'),
      });
    try {
      const before = await startTestSim({ grantsFile });
      const kept = (await before.userToken({ duration: 'permanent', username: 'growth_marketer' }))
        .refresh_token!;
      const revoked = (await before.userToken({ duration: 'permanent' })).refresh_token!;
      const gone = await before.post('/api/v1/revoke_token', { token: revoked }, undefined, {
        authorization: basic('test-web-app', 'web-secret'),
      });
      expect(gone.status).toBe(204);
      await before.sim.close();

      const after = await startTestSim({ grantsFile });
      try {
        const res = await refresh(after, kept);
        expect(res.status).toBe(200);
        const token = ((await res.json()) as { access_token: string }).access_token;
        const me = await after.get('/api/v1/me', token);
        expect(((await me.json()) as { name: string }).name).toBe('growth_marketer');
        expect((await refresh(after, revoked)).status).toBe(400);
      } finally {
        await after.sim.close();
      }
      // Without the file, a restart forgets them, as before.
      const forgetful = await startTestSim();
      expect((await refresh(forgetful, kept)).status).toBe(400);
      await forgetful.sim.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('client_credentials gives an app-only token that reads listings but has no user', async () => {
    const token = await t.appToken();
    expect((await t.get('/r/SaaS/new', token)).status).toBe(200);
    expect((await t.get('/api/v1/me', token)).status).toBe(403);
  });

  it('rejects bad client credentials with 401 invalid_client, and a secret that changed after first use', async () => {
    const none = await t.post('/api/v1/access_token', { grant_type: 'client_credentials' });
    expect(none.status).toBe(401);
    expect(await none.json()).toMatchObject({ error: 'invalid_client' });

    await t.appToken('pinned', 'first-secret');
    const wrong = await t.post('/api/v1/access_token', { grant_type: 'client_credentials' }, undefined, {
      authorization: basic('pinned', 'other-secret'),
    });
    expect(wrong.status).toBe(401);

    t.sim.registerClient({ clientId: 'registered', clientSecret: 'right', type: 'script' });
    const bad = await t.post('/api/v1/access_token', { grant_type: 'client_credentials' }, undefined, {
      authorization: basic('registered', 'wrong'),
    });
    expect(bad.status).toBe(401);
    const good = await t.post('/api/v1/access_token', { grant_type: 'client_credentials' }, undefined, {
      authorization: basic('registered', 'right'),
    });
    expect(good.status).toBe(200);
  });

  it('refuses unknown clients when acceptAnyClient is false', async () => {
    const strict = await startTestSim({ acceptAnyClient: false });
    try {
      const res = await strict.post('/api/v1/access_token', { grant_type: 'client_credentials' }, undefined, {
        authorization: basic('nobody', 'x'),
      });
      expect(res.status).toBe(401);
    } finally {
      await strict.sim.close();
    }
  });

  it('codes are single use and bound to their redirect_uri', async () => {
    const redirectUri = 'http://localhost:5173/callback';
    const decision = await t.post('/api/v1/authorize', {
      client_id: 'test-web-app',
      response_type: 'code',
      state: 's',
      redirect_uri: redirectUri,
      duration: 'temporary',
      scope: 'identity',
      username: 'demo_founder',
      authorize: 'Approve',
    });
    const code = new URL(decision.headers.get('location') ?? '').searchParams.get('code') ?? '';
    const auth = { authorization: basic('test-web-app', 'web-secret') };
    const wrongUri = await t.post(
      '/api/v1/access_token',
      { grant_type: 'authorization_code', code, redirect_uri: 'http://other/cb' },
      undefined,
      auth,
    );
    expect(await wrongUri.json()).toEqual({ error: 'invalid_grant' });
    const ok = await t.post(
      '/api/v1/access_token',
      { grant_type: 'authorization_code', code, redirect_uri: redirectUri },
      undefined,
      auth,
    );
    expect(ok.status).toBe(200);
    const again = await t.post(
      '/api/v1/access_token',
      { grant_type: 'authorization_code', code, redirect_uri: redirectUri },
      undefined,
      auth,
    );
    expect(await again.json()).toEqual({ error: 'invalid_grant' });
  });
});

describe('bearer tokens', () => {
  it('expire after a day of simulator time, as expires_in says', async () => {
    const { access_token, expires_in } = await t.userToken();
    expect(expires_in).toBe(86_400);
    t.clock.advance(86_399_000);
    expect((await t.get('/api/v1/me', access_token)).status).toBe(200);
    t.clock.advance(1000);
    const expired = await t.get('/api/v1/me', access_token);
    expect(expired.status).toBe(401);
    expect(await expired.json()).toEqual({ message: 'Unauthorized', error: 401 });
  });

  it('are required on API calls', async () => {
    expect((await t.get('/r/SaaS/new')).status).toBe(401);
    expect((await t.get('/r/SaaS/new', 'not-a-token')).status).toBe(401);
  });

  it('need the right scope', async () => {
    const { access_token } = await t.userToken({ scopes: 'identity' });
    const res = await t.get('/r/SaaS/new', access_token);
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ message: 'Forbidden', error: 403 });
  });
});

describe('GET /api/v1/me', () => {
  it('describes the account chosen on the consent page', async () => {
    const demo = await t.userToken({ username: 'demo_founder' });
    const me = (await (await t.get('/api/v1/me', demo.access_token)).json()) as Record<string, unknown>;
    expect(me).toMatchObject({ name: 'demo_founder', is_suspended: false });
    expect(typeof me.id).toBe('string');
    expect(t.clock.t / 1000 - (me.created_utc as number)).toBeGreaterThan(7 * 86400);
    expect(me.comment_karma).toBeGreaterThan(0);
    expect(me.link_karma).toBeGreaterThan(0);

    const fresh = await t.userToken({ username: 'fresh_account' });
    const freshMe = (await (await t.get('/api/v1/me', fresh.access_token)).json()) as { created_utc: number };
    const ageDays = (t.clock.t / 1000 - freshMe.created_utc) / 86400;
    expect(ageDays).toBeGreaterThanOrEqual(2);
    expect(ageDays).toBeLessThan(3);
  });
});
