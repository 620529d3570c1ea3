import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestBrowser } from '../../test/sso-browser';
import { createTestApp, type TestApp } from '../../test/test-app';
import { seedDemoUsers } from '../dev-idp';
import { INVALID_EMAIL } from '../dev-idp/dev-idp.plugin';
import { systemClock } from '../../clock';
import { issueV3Link, REFRESH_REUSE_GRACE_MS } from './auth.service';
import { SESSION_HINT_COOKIE } from '@threadreach/contract';
import { REFRESH_COOKIE } from './auth.routes';

// The server's time runs with the wall clock (the identity provider's does), and tests move it on.
let skew = 0;
const clock = { now: () => Date.now() + skew, sleep: systemClock.sleep };
const passMs = (ms: number) => (skew += ms);

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ listen: true, clock });
  await seedDemoUsers(t.ctx.db);
});
afterAll(() => t.close());

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are asserted field by field
type Json = any;
const json = (res: Response): Promise<Json> => res.json();

/** Another browser holding a copy of a refresh cookie: a second tab, a retry, or a thief. */
function withCookie(refreshToken: string): TestBrowser {
  const browser = new TestBrowser(t.url);
  browser.setCookie(REFRESH_COOKIE, refreshToken);
  return browser;
}

const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());

async function signIn(options: { loginHint?: string; pick?: string; redirectTo?: string } = {}) {
  const browser = new TestBrowser(t.url);
  const q = options.redirectTo ? `?redirect_to=${encodeURIComponent(options.redirectTo)}` : '';
  const start = await json(await browser.fetch(`/api/v1/auth/sso/start${q}`));
  expect(start.callback_url).toBe(`${t.url}/auth/callback`);
  const ssoUrl = options.loginHint
    ? `${start.sso_url}&login_hint=${encodeURIComponent(options.loginHint)}`
    : start.sso_url;
  const callback = await browser.followToCallback(ssoUrl, options.pick);
  const ver = callback.searchParams.get('ver')!;
  const res = await browser.fetch(`/api/v1/auth/callback?ver=${encodeURIComponent(ver)}`);
  return { browser, res, body: await json(res), callback, ver };
}

describe('sign-in through the development identity provider', () => {
  it('signs a demo user in from the picker, with the spec claims and a refresh cookie', async () => {
    const { body, browser, callback } = await signIn({
      pick: 'user@demo.local',
      redirectTo: '/projects?x=1',
    });
    expect(callback.searchParams.get('redirect_to')).toBe('/projects?x=1');
    expect(body).toMatchObject({
      refresh_token: null,
      user: { email: 'user@demo.local', profiles_limit: 3 },
      redirect_url: '/projects?x=1',
      requires_subscription: false,
      subscribe_url: '/subscribe',
    });
    expect(claimsOf(body.token)).toMatchObject({ email: 'user@demo.local', roles: ['USER'], type: 'access' });
    expect(browser.cookie(REFRESH_COOKIE)).toBeTruthy();
    const me = await browser.fetch('/api/v1/me', { headers: { authorization: `Bearer ${body.token}` } });
    expect((await json(me)).roles).toEqual(['USER']);
  });

  it.each(['admin@demo.local', 'moderator@demo.local', 'readonly@demo.local', 'new@demo.local'])(
    'honours login_hint=%s without the picker',
    async (email) => {
      const { body } = await signIn({ loginHint: email });
      expect(body.user.email).toBe(email);
    },
  );

  it('asks who signs in with prompt=login, although the provider still has a session', async () => {
    const { browser } = await signIn({ pick: 'user@demo.local' });
    const start = await json(await browser.fetch('/api/v1/auth/sso/start?prompt=login'));
    expect(new URL(start.sso_url).searchParams.get('prompt')).toBe('login');
    // The picker comes back, and someone else signs in.
    const callback = await browser.followToCallback(start.sso_url, 'admin@demo.local');
    const ver = callback.searchParams.get('ver')!;
    const body = await json(await browser.fetch(`/api/v1/auth/callback?ver=${encodeURIComponent(ver)}`));
    expect(body.user.email).toBe('admin@demo.local');
    const plain = await json(await browser.fetch('/api/v1/auth/sso/start'));
    expect(new URL(plain.sso_url).searchParams.has('prompt')).toBe(false);
    const bad = await browser.fetch('/api/v1/auth/sso/start?prompt=none');
    expect(bad.status).toBe(400);
    expect(await json(bad)).toMatchObject({ code: 'validation_error' });
  });

  it('signs in any other e-mail as a new USER without a subscription', async () => {
    const email = `someone-${randomUUID()}@example.com`;
    const { body } = await signIn({ loginHint: email });
    expect(body.user).toMatchObject({ email, profiles_limit: 0 });
    expect(body.requires_subscription).toBe(true);
    expect(claimsOf(body.token).roles).toEqual(['USER']);
  });

  it('shows the picker again with the e-mail and why when it is not a whole address, and signs in once mended', async () => {
    const browser = new TestBrowser(t.url);
    const start = await json(await browser.fetch('/api/v1/auth/sso/start'));
    let res = await browser.fetch(start.sso_url);
    while (res.status >= 300 && res.status < 400) res = await browser.fetch(res.headers.get('location')!);
    const action = /<form method="post" action="([^"]+\/login)" class="other"/.exec(await res.text())![1]!;
    const post = (email: string) =>
      browser.fetch(action, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ email }).toString(),
      });
    const refused = await post('someone@example');
    expect(refused.status).toBe(400);
    const page = await refused.text();
    expect(page).toContain(`role="alert" id="email-error">${INVALID_EMAIL}</p>`);
    expect(page).toContain('value="someone@example"');
    expect(page).toContain(`action="${action}"`);
    const mended = await post(`someone-${randomUUID()}@example.com`);
    const callback = await browser.followToCallback(mended.headers.get('location')!);
    const ver = callback.searchParams.get('ver')!;
    const body = await json(await browser.fetch(`/api/v1/auth/callback?ver=${encodeURIComponent(ver)}`));
    expect(body.user.email).toMatch(/^someone-.*@example\.com$/);
  });

  it.each(['//evil.example/x', '/\t/evil.test', '/\n/evil.test', '/\\evil.test', 'https://evil.test'])(
    'only follows same-site redirect paths, not %j',
    async (redirectTo) => {
      const { body, callback } = await signIn({ loginHint: 'user@demo.local', redirectTo });
      expect(callback.searchParams.get('redirect_to') ?? '/').toBe('/');
      expect(body.redirect_url).toBe('/');
    },
  );

  it("never shows the provider's error_description, which anyone can write into a link", async () => {
    const start = await json(await fetch(`${t.url}/api/v1/auth/sso/start`));
    const state = new URL(start.sso_url).searchParams.get('state')!;
    const forged = new URLSearchParams({
      error: 'access_denied',
      error_description: 'Your account is locked: call +1 555 0100 now',
      state,
    });
    const ver = Buffer.from(forged.toString()).toString('base64url');
    const res = await fetch(`${t.url}/api/v1/auth/callback?ver=${ver}`);
    expect(res.status).toBe(400);
    const body = await json(res);
    expect(body).toEqual({
      detail: 'Sign-in was cancelled or refused at the identity provider. Please log in again.',
      code: 'sso_denied',
    });
    const other = Buffer.from('error=%3Cb%3Eodd%3C%2Fb%3E&error_description=x').toString('base64url');
    expect(await json(await fetch(`${t.url}/api/v1/auth/callback?ver=${other}`))).toEqual({
      detail: 'The identity provider did not complete the sign-in. Please log in again.',
      code: 'sso_denied',
    });
  });

  it("answers a callback without ver, or with an empty one, in the spec's words", async () => {
    for (const query of ['', '?ver=']) {
      expect(await json(await fetch(`${t.url}/api/v1/auth/callback${query}`)), query).toEqual({
        detail: 'Missing SSO callback parameters (ver token).',
        code: 'validation_error',
        errors: [{ path: 'ver', message: 'Missing SSO callback parameters (ver token).' }],
      });
    }
  });

  it('completes a callback once', async () => {
    const { browser, ver } = await signIn({ loginHint: 'user@demo.local' });
    const again = await browser.fetch(`/api/v1/auth/callback?ver=${encodeURIComponent(ver)}`);
    expect(again.status).toBe(400);
    expect((await json(again)).code).toBe('sso_state_invalid');
  });

  it('answers a missing or garbage ver with 400', async () => {
    const missing = await fetch(`${t.url}/api/v1/auth/callback`);
    expect(missing.status).toBe(400);
    expect((await json(missing)).detail).toContain('ver');
    const garbage = await fetch(`${t.url}/api/v1/auth/callback?ver=%%%`);
    expect(garbage.status).toBe(400);
  });
});

describe('refresh tokens', () => {
  it('rotate on every use; reusing one after the grace revokes the whole family', async () => {
    const { browser } = await signIn({ loginHint: 'user@demo.local' });
    const first = browser.cookie(REFRESH_COOKIE)!;
    const r1 = await browser.fetch('/api/v1/auth/refresh-with-token', { method: 'POST' });
    expect(r1.status).toBe(200);
    expect((await json(r1)).token.split('.')).toHaveLength(3);
    const second = browser.cookie(REFRESH_COOKIE)!;
    expect(second).not.toBe(first);

    passMs(REFRESH_REUSE_GRACE_MS + 1000);
    const thief = new TestBrowser(t.url);
    thief.setCookie(REFRESH_COOKIE, first);
    const reuse = await thief.fetch('/api/v1/auth/refresh-with-token', { method: 'POST' });
    expect(reuse.status).toBe(401);
    const afterReuse = await browser.fetch('/api/v1/auth/refresh-with-token', { method: 'POST' });
    expect(afterReuse.status).toBe(401);
  });

  it('are revoked by logout, whose clearing cookie has the attributes of the one it clears', async () => {
    const { browser, res } = await signIn({ loginHint: 'user@demo.local' });
    const token = browser.cookie(REFRESH_COOKIE)!;
    const out = await browser.fetch('/api/v1/auth/logout', { method: 'POST' });
    expect(out.status).toBe(204);
    const attributes = (line: string) =>
      line
        .split(';')
        .slice(1)
        .map((a) => a.trim().split('=')[0]!.toLowerCase())
        .filter((a) => a !== 'expires' && a !== 'max-age')
        .sort();
    const [setLine] = res.headers.getSetCookie();
    const [clearLine] = out.headers.getSetCookie();
    expect(clearLine).toMatch(/HttpOnly/);
    expect(clearLine).toMatch(/SameSite=Strict/);
    expect(clearLine).toMatch(/Path=\/api\/v1\/auth/);
    expect(attributes(clearLine!)).toEqual(attributes(setLine!));
    const replay = new TestBrowser(t.url);
    replay.setCookie(REFRESH_COOKIE, token);
    expect((await replay.fetch('/api/v1/auth/refresh-with-token', { method: 'POST' })).status).toBe(401);
  });

  it('come with a session hint the page can read, cleared at logout and when the session cannot be restored', async () => {
    const { browser, res } = await signIn({ loginHint: 'user@demo.local' });
    expect(browser.cookie(SESSION_HINT_COOKIE)).toBe('1');
    const hintLine = res.headers.getSetCookie().find((l) => l.startsWith(`${SESSION_HINT_COOKIE}=`))!;
    expect(hintLine).not.toMatch(/HttpOnly/i);
    expect(hintLine).toMatch(/Path=\/;/);
    expect(hintLine).toMatch(/SameSite=Strict/);
    await browser.fetch('/api/v1/auth/logout', { method: 'POST' });
    expect(browser.cookie(SESSION_HINT_COOKIE)).toBeUndefined();

    const again = await signIn({ loginHint: 'user@demo.local' });
    const stolen = again.browser.cookie(REFRESH_COOKIE)!;
    await again.browser.fetch('/api/v1/auth/refresh-with-token', { method: 'POST' });
    passMs(REFRESH_REUSE_GRACE_MS + 1000);
    const thief = new TestBrowser(t.url);
    thief.setCookie(REFRESH_COOKIE, stolen);
    await thief.fetch('/api/v1/auth/refresh-with-token', { method: 'POST' }); // revokes the family
    expect(again.browser.cookie(SESSION_HINT_COOKIE)).toBe('1');
    const refused = await again.browser.fetch('/api/v1/auth/refresh-with-token', { method: 'POST' });
    expect(refused.status).toBe(401);
    expect(again.browser.cookie(SESSION_HINT_COOKIE)).toBeUndefined();
  });

  it('survive a refresh that fails midway: the cookie and the hint stay, and the retry restores the session', async () => {
    const { browser } = await signIn({ loginHint: 'user@demo.local' });
    const cookie = browser.cookie(REFRESH_COOKIE);
    // The new token cannot be stored, after the old one was spent in the same refresh.
    await t.ctx.db.execute(sql`create function refuse_refresh_token() returns trigger language plpgsql
      as $$ begin raise exception 'storage unavailable'; end $$`);
    await t.ctx.db.execute(sql`create trigger refuse_refresh_token before insert on refresh_tokens
      for each row execute function refuse_refresh_token()`);
    try {
      const failed = await browser.fetch('/api/v1/auth/refresh-with-token', { method: 'POST' });
      expect(failed.status).toBe(500);
    } finally {
      await t.ctx.db.execute(sql`drop trigger refuse_refresh_token on refresh_tokens`);
      await t.ctx.db.execute(sql`drop function refuse_refresh_token()`);
    }
    expect(browser.cookie(REFRESH_COOKIE)).toBe(cookie);
    expect(browser.cookie(SESSION_HINT_COOKIE)).toBe('1');
    const retried = await browser.fetch('/api/v1/auth/refresh-with-token', { method: 'POST' });
    expect(retried.status).toBe(200);
    expect(browser.cookie(REFRESH_COOKIE)).not.toBe(cookie);
  });

  it('answer a rotated token again within the grace (a lost answer, a second tab) with a new token of the family, which rotates in turn', async () => {
    const { browser } = await signIn({ loginHint: 'user@demo.local' });
    const first = browser.cookie(REFRESH_COOKIE)!;
    expect((await browser.fetch('/api/v1/auth/refresh-with-token', { method: 'POST' })).status).toBe(200);
    const second = browser.cookie(REFRESH_COOKIE)!;

    passMs(REFRESH_REUSE_GRACE_MS - 5000);
    const retry = withCookie(first);
    const again = await retry.fetch('/api/v1/auth/refresh-with-token', { method: 'POST' });
    expect(again.status).toBe(200);
    expect(claimsOf((await json(again)).token).email).toBe('user@demo.local');
    const third = retry.cookie(REFRESH_COOKIE)!;
    expect([first, second]).not.toContain(third);
    expect(retry.cookie(SESSION_HINT_COOKIE)).toBe('1');

    // The family lives on: the grace answer rotates like any token, and so does the first answer.
    expect((await retry.fetch('/api/v1/auth/refresh-with-token', { method: 'POST' })).status).toBe(200);
    expect([first, second, third]).not.toContain(retry.cookie(REFRESH_COOKIE));
    expect((await browser.fetch('/api/v1/auth/refresh-with-token', { method: 'POST' })).status).toBe(200);
  });

  it('count the grace from the rotation, not from its last use: a copy presented after it revokes the family', async () => {
    const { browser } = await signIn({ loginHint: 'user@demo.local' });
    const first = browser.cookie(REFRESH_COOKIE)!;
    await browser.fetch('/api/v1/auth/refresh-with-token', { method: 'POST' });

    const thief = withCookie(first);
    passMs(REFRESH_REUSE_GRACE_MS / 2);
    expect((await thief.fetch('/api/v1/auth/refresh-with-token', { method: 'POST' })).status).toBe(200);
    const graced = thief.cookie(REFRESH_COOKIE)!;
    thief.setCookie(REFRESH_COOKIE, first);
    passMs(REFRESH_REUSE_GRACE_MS / 2 + 1000);
    expect((await thief.fetch('/api/v1/auth/refresh-with-token', { method: 'POST' })).status).toBe(401);

    expect((await browser.fetch('/api/v1/auth/refresh-with-token', { method: 'POST' })).status).toBe(401);
    expect(
      (await withCookie(graced).fetch('/api/v1/auth/refresh-with-token', { method: 'POST' })).status,
    ).toBe(401);
  });

  it('give no grace once the family is ended by logout', async () => {
    const { browser } = await signIn({ loginHint: 'user@demo.local' });
    const first = browser.cookie(REFRESH_COOKIE)!;
    await browser.fetch('/api/v1/auth/refresh-with-token', { method: 'POST' });
    await browser.fetch('/api/v1/auth/logout', { method: 'POST' });
    passMs(1000);
    expect(
      (await withCookie(first).fetch('/api/v1/auth/refresh-with-token', { method: 'POST' })).status,
    ).toBe(401);
  });

  it('answer two refreshes of the same cookie at the same instant, each with a live token of the family', async () => {
    const { browser } = await signIn({ loginHint: 'user@demo.local' });
    const first = browser.cookie(REFRESH_COOKIE)!;
    const tabs = [withCookie(first), withCookie(first)];
    const answers = await Promise.all(
      tabs.map((tab) => tab.fetch('/api/v1/auth/refresh-with-token', { method: 'POST' })),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    const [a, b] = tabs.map((tab) => tab.cookie(REFRESH_COOKIE)!);
    expect(new Set([first, a, b]).size).toBe(3);
    passMs(REFRESH_REUSE_GRACE_MS + 1000);
    for (const tab of tabs) {
      expect((await tab.fetch('/api/v1/auth/refresh-with-token', { method: 'POST' })).status).toBe(200);
    }
  });

  it('refuse a request without the cookie', async () => {
    const res = await fetch(`${t.url}/api/v1/auth/refresh-with-token`, { method: 'POST' });
    expect(res.status).toBe(401);
  });

  it('refresh-after-subscription carries the limit the user has now, inside the cookie session', async () => {
    const email = `buyer-${randomUUID()}@example.com`;
    const { body, browser } = await signIn({ loginHint: email });
    const before = await json(await browser.fetch('/api/v1/auth/refresh-with-token', { method: 'POST' }));
    expect(before).toMatchObject({
      requires_subscription: true,
      redirect_url: '/subscribe',
      subscribe_url: '/subscribe',
    });
    const cookie = browser.cookie(REFRESH_COOKIE);
    await t.ctx.db.execute(sql`update users set profiles_limit = 5 where email = ${email}`);
    const res = await browser.fetch('/api/v1/auth/refresh-after-subscription', {
      method: 'POST',
      headers: { authorization: `Bearer ${body.token}` },
    });
    expect(res.status).toBe(200);
    const fresh = await json(res);
    expect(fresh.user.profiles_limit).toBe(5);
    expect(fresh).toMatchObject({
      requires_subscription: false,
      redirect_url: '/',
      subscribe_url: '/subscribe',
    });
    expect(claimsOf(fresh.token).profiles_limit).toBe(5);
    expect(fresh.refresh_expires_at).toBe(before.refresh_expires_at);
    // The session goes on with the same refresh token: nothing new was minted.
    expect(res.headers.getSetCookie()).toEqual([]);
    expect(browser.cookie(REFRESH_COOKIE)).toBe(cookie);
    expect((await browser.fetch('/api/v1/auth/refresh-with-token', { method: 'POST' })).status).toBe(200);
  });

  it('refresh-after-subscription takes a cookie a silent refresh rotated at the same moment, within the grace only', async () => {
    const email = `buyer-${randomUUID()}@example.com`;
    const { body, browser } = await signIn({ loginHint: email });
    const old = browser.cookie(REFRESH_COOKIE)!;
    // The page's silent refresh rotates the cookie while the success page's request left with the old one.
    expect((await browser.fetch('/api/v1/auth/refresh-with-token', { method: 'POST' })).status).toBe(200);
    await t.ctx.db.execute(sql`update users set profiles_limit = 2 where email = ${email}`);
    const late = new TestBrowser(t.url);
    late.setCookie(REFRESH_COOKIE, old);
    const ask = () =>
      late.fetch('/api/v1/auth/refresh-after-subscription', {
        method: 'POST',
        headers: { authorization: `Bearer ${body.token}` },
      });
    const res = await ask();
    expect(res.status).toBe(200);
    expect(claimsOf((await json(res)).token).profiles_limit).toBe(2);
    expect(res.headers.getSetCookie()).toEqual([]);
    // The session goes on through the rotated cookie.
    expect((await browser.fetch('/api/v1/auth/refresh-with-token', { method: 'POST' })).status).toBe(200);
    passMs(REFRESH_REUSE_GRACE_MS + 1000);
    expect((await ask()).status).toBe(401);
  });

  it('refresh-after-subscription never mints a session from a bearer token alone, nor after logout', async () => {
    const { body, browser } = await signIn({ loginHint: 'user@demo.local' });
    const bearer = { authorization: `Bearer ${body.token}` };
    const bare = await fetch(`${t.url}/api/v1/auth/refresh-after-subscription`, {
      method: 'POST',
      headers: bearer,
    });
    expect(bare.status).toBe(401);
    expect(bare.headers.getSetCookie()).toEqual([]);
    expect(await json(bare)).toMatchObject({ code: 'unauthorized' });

    const other = await signIn({ loginHint: 'admin@demo.local' });
    const foreign = new TestBrowser(t.url);
    foreign.setCookie(REFRESH_COOKIE, other.browser.cookie(REFRESH_COOKIE)!);
    const mixed = await foreign.fetch('/api/v1/auth/refresh-after-subscription', {
      method: 'POST',
      headers: bearer,
    });
    expect(mixed.status).toBe(401);

    const cookie = browser.cookie(REFRESH_COOKIE)!;
    expect((await browser.fetch('/api/v1/auth/logout', { method: 'POST' })).status).toBe(204);
    const replay = new TestBrowser(t.url);
    replay.setCookie(REFRESH_COOKIE, cookie);
    const after = await replay.fetch('/api/v1/auth/refresh-after-subscription', {
      method: 'POST',
      headers: bearer,
    });
    expect(after.status).toBe(401);
    expect(after.headers.getSetCookie()).toEqual([]);
    expect((await replay.fetch('/api/v1/auth/refresh-with-token', { method: 'POST' })).status).toBe(401);
  });
});

describe('v3 direct login', () => {
  it('signs a moderator in once, never twice', async () => {
    const link = new URL(await issueV3Link(t.ctx, 'moderator@demo.local'));
    const v3 = link.searchParams.get('v3')!;
    const res = await fetch(`${t.url}/api/v1/auth/v3-login?v3=${encodeURIComponent(v3)}`);
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body).toMatchObject({ user: { email: 'moderator@demo.local' }, redirect_url: '/' });
    expect(claimsOf(body.token).roles).toEqual(['MODERATOR']);
    const again = await fetch(`${t.url}/api/v1/auth/v3-login?v3=${encodeURIComponent(v3)}`);
    expect(again.status).toBe(401);
    expect((await json(again)).detail).toContain('already used');
  });

  it('refuses accounts below MODERATOR and forged links', async () => {
    const link = new URL(await issueV3Link(t.ctx, 'user@demo.local'));
    const res = await fetch(`${t.url}/api/v1/auth/v3-login?v3=${link.searchParams.get('v3')}`);
    expect(res.status).toBe(403);
    expect((await json(res)).detail).toContain('MODERATOR or ADMIN');
    const forged = await fetch(`${t.url}/api/v1/auth/v3-login?v3=abc.def.ghi`);
    expect(forged.status).toBe(401);
  });
});

describe('cross-site requests to the cookie routes', () => {
  const post = (browser: TestBrowser, path: string, headers: Record<string, string>) =>
    browser.fetch(path, { method: 'POST', headers });

  it('are refused with 403 and change nothing', async () => {
    const { browser, body } = await signIn({ loginHint: 'user@demo.local' });
    const cookie = browser.cookie(REFRESH_COOKIE);
    const bearer = { authorization: `Bearer ${body.token}` };
    const attempts: Record<string, string>[] = [
      { origin: 'https://evil.test' },
      { origin: 'null' },
      { 'sec-fetch-site': 'cross-site', origin: 'https://evil.test' },
      { 'sec-fetch-site': 'same-site', origin: t.url.replace('127.0.0.1', 'sub.localhost') },
      { 'sec-fetch-site': 'cross-site' },
    ];
    for (const headers of attempts) {
      for (const path of [
        '/api/v1/auth/refresh-with-token',
        '/api/v1/auth/logout',
        '/api/v1/auth/refresh-after-subscription',
      ]) {
        const res = await post(browser, path, { ...bearer, ...headers });
        expect(res.status, `${path} ${JSON.stringify(headers)}`).toBe(403);
        expect(await json(res)).toEqual({
          detail: 'Cross-site requests are not accepted here.',
          code: 'cross_site',
        });
        expect(res.headers.getSetCookie()).toEqual([]);
      }
    }
    expect(browser.cookie(REFRESH_COOKIE)).toBe(cookie);
    // The session survived every attempt.
    expect((await post(browser, '/api/v1/auth/refresh-with-token', {})).status).toBe(200);
  });

  it('are told apart from pages of the application', async () => {
    const { browser } = await signIn({ loginHint: 'user@demo.local' });
    const sameOrigin = await post(browser, '/api/v1/auth/refresh-with-token', { origin: t.url });
    expect(sameOrigin.status).toBe(200);
    // A development proxy in front rewrites nothing the browser vouches for.
    const proxied = await post(browser, '/api/v1/auth/refresh-with-token', {
      'sec-fetch-site': 'same-origin',
      origin: 'http://localhost:5173',
    });
    expect(proxied.status).toBe(200);
    // Sign-in itself stays reachable from the identity provider's redirect.
    const start = await fetch(`${t.url}/api/v1/auth/sso/start`, {
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(start.status).toBe(200);
  });
});
