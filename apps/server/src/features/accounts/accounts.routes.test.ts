import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ACCOUNT_TOO_YOUNG, isRedditCallbackMessage, type TAccountList } from '@threadreach/contract';
import { redditAccessTokens } from '../../integrations/reddit/reddit.table';
import { retryAtOf } from '../../jobs/job';
import { fixedClock } from '../../test/clock.test-support';
import { buildProject, buildUser, type TestUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { SUBSCRIPTION_REQUIRED_DETAIL } from '../auth';
import { createCredential } from '../credentials';
import { dmMessages } from '../dms/dms.table';
import { users } from '../users/users.table';
import { redditCredentials } from '../credentials/credentials.table';
import { AccountAuthRequiredError, asAccount, refreshTokenRef } from './account-client';
import { usedToday } from './account-quota';
import { startOfNextZonedDay } from './zoned-time';
import { lastClaimAt } from '../sending/claim.repository';
import { sweepSends } from '../sending/reconcile.service';
import { DAILY_LIMIT_REASON } from './account-capacity';
import {
  CALLBACK_ERRORS,
  REDDIT_AUTH_PENDING_PER_USER,
  SUSPENDED_REASON,
  connectedElsewhereDetail,
} from './account-auth.service';
import { redditAccounts, redditAuthStates, type RedditAccountRow } from './accounts.table';
import { buildAccount } from './accounts.test-support';
import { checkAccountAuthJob } from './check-account-auth.job';

const UA = 'web:threadreach-tests:0.1.0 (by /u/threadreach_bot)';
const DAY = 86_400_000;
// A Monday morning in UTC: inside the default working hours.
const clock = fixedClock(Date.UTC(2026, 2, 2, 10));
let t: TestApp;
let credential: { id: string; clientId: string; clientSecret: string };

beforeAll(async () => {
  t = await createTestApp({ reddit: { clock } });
  credential = {
    id: '',
    clientId: `send-${randomUUID().slice(0, 12)}`,
    clientSecret: `secret-${randomUUID()}`,
  };
  const created = await createCredential(t.ctx, {
    type: 'send',
    account_name: 'threadreach_send',
    client_id: credential.clientId,
    client_secret: credential.clientSecret,
    enabled: true,
  });
  credential.id = created.id;
});
afterAll(() => t.close());
// Each test starts with the credential's request budget free again, and with the simulator's accounts
// connected nowhere (a Reddit account sends for one workspace, and each test makes its own).
beforeEach(async () => {
  clock.t += 15 * 60_000;
  t.sim!.faults.clear();
  await t.ctx.db.delete(redditAccounts);
});

type Project = Awaited<ReturnType<typeof buildProject>>;

const login = (project: Project, as: TestUser = project.owner) =>
  t.app.inject({
    url: `/api/v1/auth/reddit/login?project_id=${project.id}&additional_account=true&user_id=${as.id}`,
    headers: as.auth,
  });

const accountUrl = (project: Project, accountId: string, rest = '') =>
  `/api/v1/projects/${project.id}/accounts/${accountId}${rest}`;

/** The consent page's form, answered on the simulator: Approve as `username`, or Deny. */
async function consent(authUrl: string, decision: { username?: string; deny?: boolean } = {}) {
  const url = new URL(authUrl);
  const form = new URLSearchParams(url.searchParams);
  form.set('username', decision.username ?? 'demo_founder');
  form.set('authorize', decision.deny ? 'Deny' : 'Approve');
  const res = await fetch(new URL('/api/v1/authorize', t.sim!.url), {
    method: 'POST',
    body: form,
    redirect: 'manual',
    headers: { 'user-agent': UA },
  });
  expect(res.status).toBe(302);
  return new URL(res.headers.get('location')!);
}

/** Reddit's redirect reaching the server; returns where the server sends the browser. */
async function callback(redirect: URL | string) {
  const target = typeof redirect === 'string' ? new URL(redirect, t.url) : redirect;
  const res = await t.app.inject({ url: `${target.pathname}${target.search}` });
  expect(res.statusCode).toBe(302);
  const location = res.headers.location as string;
  expect(location.startsWith('/?')).toBe(true);
  const outcome = Object.fromEntries(new URL(location, 'http://app.local').searchParams);
  // The app shows only the messages it knows the callback sends.
  if (outcome.message) expect(isRedditCallbackMessage(outcome.message), outcome.message).toBe(true);
  return outcome;
}

/** Connects `username` to the project the whole way: login, consent, callback. */
async function connect(project: Project, username = 'demo_founder', as?: TestUser) {
  const res = await login(project, as);
  expect(res.statusCode).toBe(200);
  return callback(await consent(res.json().auth_url, { username }));
}

/** A DM of the project claimed a minute ago by the account, in `state` (sent ones sent 50 s ago). */
function claimedDm(
  project: Project,
  account: Pick<RedditAccountRow, 'id' | 'redditUsername'>,
  state: 'sent' | 'sending' | 'failed' | 'unknown',
): typeof dmMessages.$inferInsert {
  const to = `Lead_${randomUUID().slice(0, 8)}`;
  return {
    projectId: project.id,
    ownerUserId: project.owner.id,
    sourceType: 'post',
    redditPostId: randomUUID(),
    matchedKeywords: [],
    recipientUsername: to,
    recipientKey: to.toLowerCase(),
    subject: 'Hi',
    messageContent: 'Hello',
    originalContent: 'Hello',
    state,
    accountId: account.id,
    outcomeCode: state === 'sent' ? 'sent' : state === 'unknown' ? 'unknown_outcome' : null,
    claimedAt: new Date(clock.t - 60_000),
    senderKey: account.redditUsername.toLowerCase(),
    sentAt: state === 'sent' ? new Date(clock.t - 50_000) : null,
    createdAt: new Date(clock.t - 60_000),
    updatedAt: new Date(clock.t - 60_000),
  };
}

async function accountsOf(project: Project, as: TestUser = project.owner): Promise<TAccountList> {
  const res = await t.app.inject({ url: `/api/v1/projects/${project.id}/accounts`, headers: as.auth });
  expect(res.statusCode).toBe(200);
  return res.json();
}

async function rowOf(id: string): Promise<RedditAccountRow> {
  const [row] = await t.ctx.db.select().from(redditAccounts).where(eq(redditAccounts.id, id));
  return row!;
}

/** What Reddit answers a refresh with this token: 400 once its grant is revoked. */
async function refreshStatus(refreshToken: string): Promise<number> {
  const refresh = await fetch(new URL('/api/v1/access_token', t.sim!.url), {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken }),
    headers: {
      'user-agent': UA,
      authorization: `Basic ${Buffer.from(`${credential.clientId}:${credential.clientSecret}`).toString('base64')}`,
    },
  });
  return refresh.status;
}

describe('GET /auth/reddit/login', () => {
  it("answers Reddit's authorize URL for a permanent grant with the account scopes, and keeps the state", async () => {
    const project = await buildProject(t.ctx.db, t.config);
    const res = await login(project);
    expect(res.statusCode).toBe(200);
    const url = new URL(res.json().auth_url);
    expect(url.origin).toBe(new URL(t.sim!.url).origin);
    expect(url.pathname).toBe('/api/v1/authorize');
    const q = Object.fromEntries(url.searchParams);
    expect(q).toMatchObject({
      client_id: credential.clientId,
      response_type: 'code',
      duration: 'permanent',
      scope: 'identity read privatemessages history',
      redirect_uri: `${t.config.publicUrl}/api/v1/auth/reddit/callback`,
    });
    expect(q.state).toMatch(/^[\w-]{43}$/);
    const [stored] = await t.ctx.db
      .select()
      .from(redditAuthStates)
      .where(eq(redditAuthStates.state, q.state!));
    expect(stored).toMatchObject({
      userId: project.owner.id,
      projectId: project.id,
      credentialId: credential.id,
      accountId: null,
    });
    expect(stored!.expiresAt.getTime()).toBe(clock.t + 10 * 60_000);
  });

  it("keeps at most a few pending sign-ins per user, the newest, whatever others' are doing", async () => {
    const project = await buildProject(t.ctx.db, t.config);
    const other = await buildProject(t.ctx.db, t.config);
    await login(other);
    const states: string[] = [];
    for (let i = 0; i < REDDIT_AUTH_PENDING_PER_USER + 3; i++) {
      clock.t += 1000;
      states.push(new URL((await login(project)).json().auth_url).searchParams.get('state')!);
    }
    const kept = await t.ctx.db
      .select({ state: redditAuthStates.state })
      .from(redditAuthStates)
      .where(eq(redditAuthStates.userId, project.owner.id));
    expect(kept.map((r) => r.state).sort()).toEqual(states.slice(-REDDIT_AUTH_PENDING_PER_USER).sort());
    const others = await t.ctx.db
      .select()
      .from(redditAuthStates)
      .where(eq(redditAuthStates.userId, other.owner.id));
    expect(others).toHaveLength(1);
    // The oldest of them no longer completes.
    const oldest = await callback(`/api/v1/auth/reddit/callback?state=${states[0]}&code=whatever`);
    expect(oldest).toEqual({ auth: 'error', message: CALLBACK_ERRORS.stateInvalid });
  });

  it('answers 503 with a clear text when no send credential is enabled', async () => {
    const project = await buildProject(t.ctx.db, t.config);
    await t.ctx.db
      .update(redditCredentials)
      .set({ enabled: false })
      .where(eq(redditCredentials.id, credential.id));
    try {
      const res = await login(project);
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({
        detail: expect.stringContaining('an administrator needs to add an enabled send credential'),
        code: 'no_send_credential',
      });
    } finally {
      await t.ctx.db
        .update(redditCredentials)
        .set({ enabled: true })
        .where(eq(redditCredentials.id, credential.id));
    }
  });

  it('blocks a customer at their profiles_limit of accounts over all their projects, not a moderator', async () => {
    const owner = await buildUser(t.ctx.db, t.config, { profilesLimit: 2 });
    const first = await buildProject(t.ctx.db, t.config, { owner });
    const second = await buildProject(t.ctx.db, t.config, { owner });
    await buildAccount(t.ctx.db, first.id);
    expect((await login(second)).statusCode).toBe(200);
    await buildAccount(t.ctx.db, second.id);

    const blocked = await login(second);
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json()).toEqual({
      detail:
        'Limit Reached: 2 of 2 Reddit accounts are connected across your projects. Upgrade your subscription to connect more.',
      code: 'account_limit_reached',
    });
    expect((await accountsOf(second)).connect_limit).toEqual({
      used: 2,
      limit: 2,
      blocked_reason: blocked.json().detail,
    });

    const moderator = await buildUser(t.ctx.db, t.config, { roles: ['MODERATOR'], profilesLimit: 0 });
    const own = await buildProject(t.ctx.db, t.config, { owner: moderator });
    await buildAccount(t.ctx.db, own.id);
    expect((await login(own)).statusCode).toBe(200);
    expect((await accountsOf(own)).connect_limit).toEqual({ used: 1, limit: null, blocked_reason: null });
  });

  it('blocks a customer without a subscription', async () => {
    const owner = await buildUser(t.ctx.db, t.config, { profilesLimit: 0 });
    const project = await buildProject(t.ctx.db, t.config, { owner });
    const res = await login(project);
    expect(res.statusCode).toBe(403);
    // Nothing is done on a project without a plan; the account list says 'Limit Reached' beforehand.
    expect(res.json()).toEqual({ detail: SUBSCRIPTION_REQUIRED_DETAIL, code: 'subscription_required' });
    const listed = await t.app.inject({
      url: `/api/v1/projects/${project.id}/accounts`,
      headers: owner.auth,
    });
    expect(listed.json().connect_limit.blocked_reason).toBe(
      'Limit Reached: an active subscription is needed to connect Reddit accounts.',
    );
  });
});

describe('GET /auth/reddit/callback', () => {
  it('connects the account Reddit names, with its refresh token sealed, and returns to the project', async () => {
    const project = await buildProject(t.ctx.db, t.config);
    expect(await connect(project)).toEqual({
      auth: 'success',
      username: 'demo_founder',
      project_id: project.id,
    });

    const list = await accountsOf(project);
    expect(list.total).toBe(1);
    const [account] = list.items;
    expect(account).toMatchObject({
      project_id: project.id,
      reddit_username: 'demo_founder',
      account_display_name: 'u/demo_founder',
      auth_status: 'valid',
      is_active: true,
      disabled_reason: null,
      daily_message_limit: 10,
      remaining_today: 10,
      queued_sends: 0,
      capacity: {
        has_authentication: true,
        tokens_expired: false,
        remaining_capacity: 10,
        can_send_now: true,
        wait_seconds: 0,
        next_available_at: null,
        reason: null,
      },
    });
    expect(account!.account_age_days).toBeGreaterThanOrEqual(420);
    expect(account!.comment_karma).toBeGreaterThan(0);

    const row = await rowOf(account!.id);
    expect(row.credentialId).toBe(credential.id);
    expect(row.ownerUserId).toBe(project.owner.id);
    expect(row.redditUserId).toMatch(/^t2_/);
    const refreshToken = t.ctx.secrets.decrypt(row.refreshTokenCiphertext!, refreshTokenRef(row.id));
    expect(row.refreshTokenCiphertext).not.toContain(refreshToken);
    expect(JSON.stringify(list)).not.toContain(refreshToken);
    expect(JSON.stringify(list)).not.toContain(row.refreshTokenCiphertext);
    // The stored grant works: the account acts on Reddit as itself.
    expect((await asAccount(t.ctx, row, (api) => api.me())).name).toBe('demo_founder');
  });

  it('keeps what Reddit says of the account: a suspended one does not send, a 2-day-old one not yet', async () => {
    const project = await buildProject(t.ctx.db, t.config);
    expect((await connect(project, 'suspended_seller')).auth).toBe('success');
    expect((await connect(project, 'fresh_account')).auth).toBe('success');
    const byName = new Map((await accountsOf(project)).items.map((a) => [a.reddit_username, a]));
    expect(byName.get('suspended_seller')).toMatchObject({
      disabled_reason: SUSPENDED_REASON,
      capacity: { can_send_now: false, reason: SUSPENDED_REASON },
    });
    expect(byName.get('fresh_account')).toMatchObject({
      account_age_days: 2,
      remaining_today: 0,
      capacity: { can_send_now: false, reason: ACCOUNT_TOO_YOUNG },
    });
  });

  it('connects a Reddit account in one workspace only: another customer is refused until it is removed', async () => {
    const mine = await buildProject(t.ctx.db, t.config, {
      owner: await buildUser(t.ctx.db, t.config, { profilesLimit: 3 }),
    });
    const myOther = await buildProject(t.ctx.db, t.config, { owner: mine.owner });
    const theirs = await buildProject(t.ctx.db, t.config);
    expect((await connect(mine, 'demo_founder')).auth).toBe('success');
    // The same workspace shares its limit and its people across projects: a second project may hold it.
    expect((await connect(myOther, 'demo_founder')).auth).toBe('success');
    expect(await connect(theirs, 'Demo_Founder')).toEqual({
      auth: 'error',
      message: connectedElsewhereDetail('demo_founder'),
      project_id: theirs.id,
    });
    expect((await accountsOf(theirs)).total).toBe(0);

    for (const project of [mine, myOther]) {
      const [account] = (await accountsOf(project)).items;
      const removed = await t.app.inject({
        method: 'DELETE',
        url: accountUrl(project, account!.id),
        headers: project.owner.auth,
      });
      expect(removed.statusCode).toBe(204);
    }
    expect((await connect(theirs, 'demo_founder')).auth).toBe('success');
  });

  it('accepts a state once', async () => {
    const project = await buildProject(t.ctx.db, t.config);
    const redirect = await consent((await login(project)).json().auth_url);
    expect((await callback(redirect)).auth).toBe('success');
    expect(await callback(redirect)).toEqual({ auth: 'error', message: CALLBACK_ERRORS.stateInvalid });
  });

  it('refuses a state older than 10 minutes', async () => {
    const project = await buildProject(t.ctx.db, t.config);
    const redirect = await consent((await login(project)).json().auth_url);
    clock.t += 10 * 60_000;
    expect(await callback(redirect)).toEqual({ auth: 'error', message: CALLBACK_ERRORS.stateInvalid });
    expect((await accountsOf(project)).total).toBe(0);
  });

  it('refuses a state it never handed out, and a missing one', async () => {
    expect(await callback('/api/v1/auth/reddit/callback?state=forged&code=abc')).toEqual({
      auth: 'error',
      message: CALLBACK_ERRORS.stateInvalid,
    });
    expect(await callback('/api/v1/auth/reddit/callback?code=abc')).toEqual({
      auth: 'error',
      message: CALLBACK_ERRORS.stateInvalid,
    });
  });

  it('says so when consent was denied, and the state is used up', async () => {
    const project = await buildProject(t.ctx.db, t.config);
    const redirect = await consent((await login(project)).json().auth_url, { deny: true });
    expect(redirect.searchParams.get('error')).toBe('access_denied');
    expect(await callback(redirect)).toEqual({
      auth: 'error',
      message: 'Access was denied on Reddit.',
      project_id: project.id,
    });
    redirect.searchParams.delete('error');
    redirect.searchParams.set('code', 'late');
    expect((await callback(redirect)).message).toBe(CALLBACK_ERRORS.stateInvalid);
  });

  it("never echoes Reddit's error text or sends the browser anywhere but the app", async () => {
    const res = await t.app.inject({
      url: '/api/v1/auth/reddit/callback?error=%3Cscript%3E&state=x&redirect_uri=https://evil.example',
    });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe(
      `/?auth=error&message=${encodeURIComponent(CALLBACK_ERRORS.notAuthorized).replace(/%20/g, '+')}`,
    );
  });

  it('says so when Reddit refuses the code', async () => {
    const project = await buildProject(t.ctx.db, t.config);
    const redirect = await consent((await login(project)).json().auth_url);
    redirect.searchParams.set('code', 'not-a-code');
    expect(await callback(redirect)).toEqual({
      auth: 'error',
      message: CALLBACK_ERRORS.refused,
      project_id: project.id,
    });
  });

  it('connecting the same Reddit account again updates it instead of adding another', async () => {
    const project = await buildProject(t.ctx.db, t.config);
    await connect(project);
    const before = (await accountsOf(project)).items[0]!;
    await connect(project);
    const after = await accountsOf(project);
    expect(after.total).toBe(1);
    expect(after.items[0]!.id).toBe(before.id);
  });

  it('checks the limit again when the sign-in completes', async () => {
    const owner = await buildUser(t.ctx.db, t.config, { profilesLimit: 1 });
    const project = await buildProject(t.ctx.db, t.config, { owner });
    const redirect = await consent((await login(project)).json().auth_url);
    await buildAccount(t.ctx.db, project.id);
    const result = await callback(redirect);
    expect(result.auth).toBe('error');
    expect(result.message).toMatch(/^Limit Reached: 1 of 1/);
    expect((await accountsOf(project)).total).toBe(1);
  });

  it('counts a Reddit account connected in two projects of the workspace once', async () => {
    const owner = await buildUser(t.ctx.db, t.config, { profilesLimit: 2 });
    const first = await buildProject(t.ctx.db, t.config, { owner });
    const second = await buildProject(t.ctx.db, t.config, { owner });
    expect((await connect(first, 'demo_founder')).auth).toBe('success');
    expect((await connect(second, 'demo_founder')).auth).toBe('success');
    expect((await accountsOf(second)).connect_limit).toEqual({ used: 1, limit: 2, blocked_reason: null });
    expect((await connect(second, 'growth_marketer')).auth).toBe('success');
    expect((await accountsOf(first)).connect_limit).toMatchObject({ used: 2, limit: 2 });
    // At the limit, a sign-in already under way may still bring an account the workspace has elsewhere.
    const third = await buildProject(t.ctx.db, t.config, { owner });
    await t.ctx.db.update(users).set({ profilesLimit: 3 }).where(eq(users.id, owner.id));
    const redirect = await consent((await login(third)).json().auth_url, { username: 'growth_marketer' });
    await t.ctx.db.update(users).set({ profilesLimit: 2 }).where(eq(users.id, owner.id));
    expect((await callback(redirect)).auth).toBe('success');
    expect((await accountsOf(third)).items.map((a) => a.reddit_username)).toEqual(['growth_marketer']);
  });
});

describe('re-authentication', () => {
  it('signs the same account in again, and refuses another Reddit account in its place', async () => {
    const project = await buildProject(t.ctx.db, t.config);
    await connect(project);
    const account = (await accountsOf(project)).items[0]!;
    await t.ctx.db
      .update(redditAccounts)
      .set({ authStatus: 'expired' })
      .where(eq(redditAccounts.id, account.id));
    expect((await accountsOf(project)).items[0]!.capacity.tokens_expired).toBe(true);

    const start = () =>
      t.app.inject({
        method: 'POST',
        url: accountUrl(project, account.id, '/reauthenticate'),
        headers: project.owner.auth,
      });
    const wrong = await callback(
      await consent((await start()).json().auth_url, { username: 'growth_marketer' }),
    );
    expect(wrong).toEqual({
      auth: 'error',
      message:
        'You signed in as u/growth_marketer, not u/demo_founder. Sign in as u/demo_founder to re-authenticate it.',
      project_id: project.id,
    });

    const res = await start();
    expect(res.statusCode).toBe(200);
    const state = new URL(res.json().auth_url).searchParams.get('state')!;
    const [stored] = await t.ctx.db.select().from(redditAuthStates).where(eq(redditAuthStates.state, state));
    expect(stored!.accountId).toBe(account.id);
    expect((await callback(await consent(res.json().auth_url))).auth).toBe('success');
    const after = await accountsOf(project);
    expect(after.total).toBe(1);
    expect(after.items[0]).toMatchObject({ id: account.id, auth_status: 'valid' });
  });

  it('is not counted against the limit', async () => {
    const owner = await buildUser(t.ctx.db, t.config, { profilesLimit: 1 });
    const project = await buildProject(t.ctx.db, t.config, { owner });
    await connect(project);
    const account = (await accountsOf(project)).items[0]!;
    const res = await t.app.inject({
      method: 'POST',
      url: accountUrl(project, account.id, '/reauthenticate'),
      headers: owner.auth,
    });
    expect(res.statusCode).toBe(200);
    expect((await callback(await consent(res.json().auth_url))).auth).toBe('success');
  });
});

describe('a revoked grant', () => {
  it('turns the account to Auth Required the next time it reaches Reddit', async () => {
    const project = await buildProject(t.ctx.db, t.config);
    await connect(project);
    const row = await rowOf((await accountsOf(project)).items[0]!.id);
    const refreshToken = t.ctx.secrets.decrypt(row.refreshTokenCiphertext!, refreshTokenRef(row.id));
    const revoke = await fetch(new URL('/api/v1/revoke_token', t.sim!.url), {
      method: 'POST',
      body: new URLSearchParams({ token: refreshToken, token_type_hint: 'refresh_token' }),
      headers: {
        'user-agent': UA,
        authorization: `Basic ${Buffer.from(`${credential.clientId}:${credential.clientSecret}`).toString('base64')}`,
      },
    });
    expect(revoke.status).toBe(204);
    // The access token it holds still works until it expires; then the refresh is refused.
    expect((await asAccount(t.ctx, row, (api) => api.me())).name).toBe('demo_founder');
    clock.t += DAY + 60_000;
    await expect(asAccount(t.ctx, row, (api) => api.me())).rejects.toBeInstanceOf(AccountAuthRequiredError);

    expect((await rowOf(row.id)).authStatus).toBe('expired');
    const [listed] = (await accountsOf(project)).items;
    expect(listed).toMatchObject({
      auth_status: 'expired',
      capacity: { has_authentication: true, tokens_expired: true, can_send_now: false },
    });
  });
});

describe('a send credential whose secret Reddit refuses', () => {
  it('is passed over by the next sign-ins, and tried again once its secret is corrected', async () => {
    const clientId = `send-wrong-${randomUUID().slice(0, 8)}`;
    t.sim!.registerClient({ clientId, clientSecret: 'the-right-secret', type: 'web' });
    // Never used, against one just used: the next sign-in goes through it.
    await t.ctx.db
      .update(redditCredentials)
      .set({ lastUsedAt: new Date(clock.t) })
      .where(eq(redditCredentials.id, credential.id));
    const wrong = await createCredential(t.ctx, {
      type: 'send',
      account_name: 'threadreach_wrong',
      client_id: clientId,
      client_secret: 'a-wrong-secret',
      enabled: true,
    });
    try {
      const project = await buildProject(t.ctx.db, t.config);
      expect(await connect(project)).toEqual({
        auth: 'error',
        message: CALLBACK_ERRORS.refused,
        project_id: project.id,
      });
      // Minutes apart, so each sign-in counts as use of its credential: every one goes through the other.
      for (let i = 0; i < 3; i++) {
        clock.t += 2 * 60_000;
        expect(await connect(project)).toMatchObject({ auth: 'success' });
        expect((await accountsOf(project)).items[0]).toBeDefined();
        const [row] = await t.ctx.db
          .select()
          .from(redditAccounts)
          .where(eq(redditAccounts.projectId, project.id));
        expect(row!.credentialId).toBe(credential.id);
      }
      const res = await t.app.inject({
        method: 'PUT',
        url: `/api/v1/reddit-credentials/${wrong.id}`,
        headers: (await buildUser(t.ctx.db, t.config, { roles: ['ADMIN'] })).auth,
        payload: { client_secret: 'the-right-secret' },
      });
      expect(res.statusCode).toBe(200);
      clock.t += 2 * 60_000;
      expect(await connect(project)).toMatchObject({ auth: 'success' });
      const [row] = await t.ctx.db
        .select()
        .from(redditAccounts)
        .where(eq(redditAccounts.projectId, project.id));
      expect(row!.credentialId).toBe(wrong.id);
    } finally {
      await t.ctx.db.delete(redditAccounts);
      await t.ctx.db.delete(redditCredentials).where(eq(redditCredentials.id, wrong.id));
    }
  });
});

describe('a deleted send credential', () => {
  it('leaves its accounts Auth Required in every answer, not "valid" beside an Auth Required reason', async () => {
    const project = await buildProject(t.ctx.db, t.config);
    await connect(project);
    const { id } = (await accountsOf(project)).items[0]!;
    // What deleting the credential does to its accounts (the foreign key's ON DELETE SET NULL).
    await t.ctx.db.update(redditAccounts).set({ credentialId: null }).where(eq(redditAccounts.id, id));
    const [listed] = (await accountsOf(project)).items;
    expect(listed).toMatchObject({ auth_status: 'expired', capacity: { can_send_now: false } });
    expect(listed!.capacity.reason).toMatch(/^Auth Required/);
  });
});

describe('check-account-auth job', () => {
  it('checks grants not checked for hours, refreshing age and karma, and marks refused ones', async () => {
    const project = await buildProject(t.ctx.db, t.config);
    await connect(project);
    await connect(project, 'growth_marketer');
    const [a, b] = (await accountsOf(project)).items;
    const stale = new Date(clock.t - 7 * 3_600_000);
    await t.ctx.db
      .update(redditAccounts)
      .set({ authCheckedAt: stale, commentKarma: 0 })
      .where(eq(redditAccounts.projectId, project.id));
    // b's grant is broken: its stored refresh token is one Reddit never issued.
    await t.ctx.db
      .update(redditAccounts)
      .set({ refreshTokenCiphertext: t.ctx.secrets.encrypt('bogus', refreshTokenRef(b!.id)) })
      .where(eq(redditAccounts.id, b!.id));
    const rowB = await rowOf(b!.id);
    await t.ctx.db.delete(redditAccessTokens).where(eq(redditAccessTokens.subject, `account:${rowB.id}`));

    await checkAccountAuthJob.handler(t.ctx, {});
    const rowA = await rowOf(a!.id);
    expect(rowA.authCheckedAt!.getTime()).toBe(clock.t);
    expect(rowA.commentKarma).toBeGreaterThan(0);
    expect(rowA.authStatus).toBe('valid');
    expect((await rowOf(b!.id)).authStatus).toBe('expired');

    // Checked a moment ago: not again.
    const before = t.sim!.inspect.requestLog().length;
    await checkAccountAuthJob.handler(t.ctx, {});
    expect(t.sim!.inspect.requestLog().length).toBe(before);
  });

  it('does not wait for a spent budget: it asks to run again when the budget frees', async () => {
    const project = await buildProject(t.ctx.db, t.config);
    await connect(project);
    await t.ctx.db
      .update(redditAccounts)
      .set({ authCheckedAt: null })
      .where(eq(redditAccounts.projectId, project.id));
    t.sim!.faults.add({ kind: 'rate-limit', retryAfter: 30, path: '/api/v1/me' });
    const error = await checkAccountAuthJob.handler(t.ctx, {}).then(
      () => null,
      (e: unknown) => e,
    );
    expect(retryAtOf(error)).toBeGreaterThanOrEqual(clock.t + 30_000);
    expect((await accountsOf(project)).items[0]!.auth_status).toBe('valid');
  });
});

describe('GET /projects/:id/accounts', () => {
  it('counts the DMs queued to go from each account, not those claimed or sent', async () => {
    const project = await buildProject(t.ctx.db, t.config);
    await connect(project);
    const account = await rowOf((await accountsOf(project)).items[0]!.id);
    const queued = (): typeof dmMessages.$inferInsert => ({
      ...claimedDm(project, account, 'sent'),
      state: 'queued',
      outcomeCode: null,
      claimedAt: null,
      senderKey: null,
      sentAt: null,
      scheduledFor: new Date(clock.t + 3_600_000),
    });
    await t.ctx.db
      .insert(dmMessages)
      .values([
        queued(),
        queued(),
        claimedDm(project, account, 'sending'),
        claimedDm(project, account, 'sent'),
      ]);
    expect((await accountsOf(project)).items[0]).toMatchObject({ id: account.id, queued_sends: 2 });
  });
});

describe('DELETE /projects/:id/accounts/:accountId', () => {
  it('removes the account and revokes its grant at Reddit', async () => {
    const project = await buildProject(t.ctx.db, t.config);
    await connect(project);
    const row = await rowOf((await accountsOf(project)).items[0]!.id);
    const refreshToken = t.ctx.secrets.decrypt(row.refreshTokenCiphertext!, refreshTokenRef(row.id));
    const res = await t.app.inject({
      method: 'DELETE',
      url: accountUrl(project, row.id),
      headers: project.owner.auth,
    });
    expect(res.statusCode).toBe(204);
    expect((await accountsOf(project)).total).toBe(0);
    const revoked = t.sim!.inspect.requestLog().filter((r) => r.endpoint.includes('revoke_token'));
    expect(revoked.at(-1)).toMatchObject({ status: 204 });
    // The refresh token no longer works.
    expect(await refreshStatus(refreshToken)).toBe(400);
    const again = await t.app.inject({
      method: 'DELETE',
      url: accountUrl(project, row.id),
      headers: project.owner.auth,
    });
    expect(again.statusCode).toBe(404);
  });

  it('leaves a DM of unknown outcome unknown, its person contacted, and says its delivery can be checked no more', async () => {
    const project = await buildProject(t.ctx.db, t.config);
    await connect(project);
    const accountId = (await accountsOf(project)).items[0]!.id;
    const account = await rowOf(accountId);
    const [unknown, sent] = await t.ctx.db
      .insert(dmMessages)
      .values([claimedDm(project, account, 'unknown'), claimedDm(project, account, 'sent')])
      .returning();
    const res = await t.app.inject({
      method: 'DELETE',
      url: accountUrl(project, accountId),
      headers: project.owner.auth,
    });
    expect(res.statusCode).toBe(204);
    const after = async (id: string) =>
      (await t.ctx.db.select().from(dmMessages).where(eq(dmMessages.id, id)))[0]!;
    expect(await after(unknown!.id)).toMatchObject({
      state: 'unknown',
      accountId: null,
      outcomeCode: 'account_removed',
      outcomeReason: `Delivery unknown: u/demo_founder was removed before Reddit confirmed it. u/${unknown!.recipientUsername} counts as contacted and is not sent it again.`,
    });
    expect(await after(sent!.id)).toMatchObject({ state: 'sent', accountId: null, outcomeCode: 'sent' });
    const status = await t.app.inject({
      url: `/api/v1/dm-sending-status?project_id=${project.id}`,
      headers: project.owner.auth,
    });
    // Counted apart from those still being checked: the status stops refreshing for it.
    expect(status.json().counts).toMatchObject({ unknown: 1, delivery_unknown: 1, sent: 1 });

    // Connected again, the Reddit account's day goes on: both sends still count, and so does its pace.
    await connect(project);
    const again = await rowOf((await accountsOf(project)).items[0]!.id);
    expect(again.id).not.toBe(accountId);
    expect(await usedToday(t.ctx.db, again, clock.now())).toBe(2);
    expect((await lastClaimAt(t.ctx.db, again))?.getTime()).toBe(clock.t - 60_000);
  });

  it('says of a send cut short on an account removed since that its delivery can be checked no more', async () => {
    const project = await buildProject(t.ctx.db, t.config);
    await connect(project);
    const accountId = (await accountsOf(project)).items[0]!.id;
    const [sending] = await t.ctx.db
      .insert(dmMessages)
      .values(claimedDm(project, await rowOf(accountId), 'sending'))
      .returning();
    const res = await t.app.inject({
      method: 'DELETE',
      url: accountUrl(project, accountId),
      headers: project.owner.auth,
    });
    expect(res.statusCode).toBe(204);
    // The process that claimed it died: the sweep finds the claim minutes later.
    const start = clock.t;
    clock.t += 6 * 60_000;
    try {
      await sweepSends(t.ctx);
    } finally {
      clock.t = start;
    }
    const [after] = await t.ctx.db.select().from(dmMessages).where(eq(dmMessages.id, sending!.id));
    expect(after).toMatchObject({
      state: 'unknown',
      accountId: null,
      outcomeCode: 'account_removed',
      outcomeReason: `Delivery unknown: u/demo_founder was removed before Reddit confirmed it. u/${sending!.recipientUsername} counts as contacted and is not sent it again.`,
    });
    const status = await t.app.inject({
      url: `/api/v1/dm-sending-status?project_id=${project.id}`,
      headers: project.owner.auth,
    });
    expect(status.json().counts).toMatchObject({ unknown: 1, delivery_unknown: 1 });
  });

  it("keeps counting a deleted project's sends toward its Reddit account's day in another project", async () => {
    const project = await buildProject(t.ctx.db, t.config);
    await connect(project);
    const account = await rowOf((await accountsOf(project)).items[0]!.id);
    await t.ctx.db
      .insert(dmMessages)
      .values([claimedDm(project, account, 'sent'), claimedDm(project, account, 'failed')]);
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/projects/${project.id}`,
      headers: project.owner.auth,
    });
    expect(deleted.statusCode).toBe(204);
    const other = await buildProject(t.ctx.db, t.config, { owner: project.owner });
    await connect(other);
    const again = await rowOf((await accountsOf(other)).items[0]!.id);
    // The sent one counts (a failed send reached nobody), and the pace keeps from it.
    expect(await usedToday(t.ctx.db, again, clock.now())).toBe(1);
    expect((await lastClaimAt(t.ctx.db, again))?.getTime()).toBe(clock.t - 60_000);
  });

  it('removes the account even when Reddit fails to revoke', async () => {
    const project = await buildProject(t.ctx.db, t.config);
    await connect(project);
    const id = (await accountsOf(project)).items[0]!.id;
    t.sim!.faults.add({ kind: 'status', status: 503, path: '/api/v1/revoke_token' });
    const res = await t.app.inject({
      method: 'DELETE',
      url: accountUrl(project, id),
      headers: project.owner.auth,
    });
    expect(res.statusCode).toBe(204);
    expect((await accountsOf(project)).total).toBe(0);
  });
});

describe('DELETE /projects/:id with connected accounts', () => {
  it('deletes the accounts with the project and revokes their grants at Reddit', async () => {
    const project = await buildProject(t.ctx.db, t.config);
    await connect(project);
    const row = await rowOf((await accountsOf(project)).items[0]!.id);
    const refreshToken = t.ctx.secrets.decrypt(row.refreshTokenCiphertext!, refreshTokenRef(row.id));
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/projects/${project.id}`,
      headers: project.owner.auth,
    });
    expect(res.statusCode).toBe(204);
    const stored = await t.ctx.db.select().from(redditAccounts).where(eq(redditAccounts.id, row.id));
    expect(stored).toHaveLength(0);
    expect(await refreshStatus(refreshToken)).toBe(400);
  });

  it('deletes the project even when Reddit fails to revoke', async () => {
    const project = await buildProject(t.ctx.db, t.config);
    await connect(project);
    t.sim!.faults.add({ kind: 'status', status: 503, path: '/api/v1/revoke_token' });
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/projects/${project.id}`,
      headers: project.owner.auth,
    });
    expect(res.statusCode).toBe(204);
    const gone = await t.app.inject({
      method: 'GET',
      url: `/api/v1/projects/${project.id}`,
      headers: project.owner.auth,
    });
    expect(gone.statusCode).toBe(404);
  });
});

describe('admins on a customer’s project', () => {
  it('connect, configure, re-authenticate and remove accounts, exempt from the limit', async () => {
    const admin = await buildUser(t.ctx.db, t.config, { roles: ['ADMIN'], profilesLimit: 0 });
    const owner = await buildUser(t.ctx.db, t.config, { profilesLimit: 0 });
    const project = await buildProject(t.ctx.db, t.config, { owner });
    expect((await login(project)).statusCode).toBe(403);
    expect(await connect(project, 'demo_founder', admin)).toMatchObject({ auth: 'success' });
    const account = (await accountsOf(project, admin)).items[0]!;
    expect((await rowOf(account.id)).ownerUserId).toBe(owner.id);

    const settings = await t.app.inject({
      method: 'POST',
      url: `/api/v1/reddit-accounts/${account.id}/settings`,
      headers: admin.auth,
      payload: { timezone: 'Europe/Berlin' },
    });
    expect(settings.statusCode).toBe(200);
    const reauth = await t.app.inject({
      method: 'POST',
      url: accountUrl(project, account.id, '/reauthenticate'),
      headers: admin.auth,
    });
    expect(reauth.statusCode).toBe(200);
    const removed = await t.app.inject({
      method: 'DELETE',
      url: accountUrl(project, account.id),
      headers: admin.auth,
    });
    expect(removed.statusCode).toBe(204);
  });

  it('but moderators do not reach customers’ projects', async () => {
    const moderator = await buildUser(t.ctx.db, t.config, { roles: ['MODERATOR'] });
    const project = await buildProject(t.ctx.db, t.config);
    const res = await login(project, moderator);
    expect(res.statusCode).toBe(404);
  });
});

describe('account settings', () => {
  it('keep the day of a zone the account leaves: moving west after a full day gives it no fresh one', async () => {
    const project = await buildProject(t.ctx.db, t.config);
    // A minute past midnight in Los Angeles; in Tokyo the day began hours ago.
    clock.t = startOfNextZonedDay(clock.t, 'America/Los_Angeles') + 60_000;
    const account = await buildAccount(t.ctx.db, project.id, { timezone: 'Asia/Tokyo', now: clock.t });
    const fiveMinutesAgo = new Date(clock.t - 5 * 60_000);
    await t.ctx.db.insert(dmMessages).values(
      Array.from({ length: 10 }, () => ({
        ...claimedDm(project, account, 'sent'),
        claimedAt: fiveMinutesAgo,
        sentAt: fiveMinutesAgo,
      })),
    );
    expect(await usedToday(t.ctx.db, await rowOf(account.id), clock.t)).toBe(10);
    const moved = await t.app.inject({
      method: 'POST',
      url: `/api/v1/reddit-accounts/${account.id}/settings`,
      headers: project.owner.auth,
      payload: { timezone: 'America/Los_Angeles' },
    });
    expect(moved.statusCode).toBe(200);
    expect(await usedToday(t.ctx.db, await rowOf(account.id), clock.t)).toBe(10);
    expect((await accountsOf(project)).items[0]).toMatchObject({ remaining_today: 0 });
  });

  it('count one day for a Reddit account connected to two projects in different zones', async () => {
    const tokyo = await buildProject(t.ctx.db, t.config);
    const losAngeles = await buildProject(t.ctx.db, t.config, { owner: tokyo.owner });
    // A minute past midnight in Los Angeles; in Tokyo the day began hours ago.
    clock.t = startOfNextZonedDay(clock.t, 'America/Los_Angeles') + 60_000;
    const inTokyo = await buildAccount(t.ctx.db, tokyo.id, { timezone: 'Asia/Tokyo', now: clock.t });
    const inLosAngeles = await buildAccount(t.ctx.db, losAngeles.id, {
      redditUsername: inTokyo.redditUsername.toUpperCase(),
      timezone: 'America/Los_Angeles',
      now: clock.t,
    });
    const fiveMinutesAgo = new Date(clock.t - 5 * 60_000);
    await t.ctx.db.insert(dmMessages).values(
      Array.from({ length: 10 }, () => ({
        ...claimedDm(tokyo, inTokyo, 'sent'),
        claimedAt: fiveMinutesAgo,
        sentAt: fiveMinutesAgo,
      })),
    );
    expect(await usedToday(t.ctx.db, await rowOf(inLosAngeles.id), clock.t)).toBe(10);
    expect((await accountsOf(losAngeles)).items[0]).toMatchObject({ remaining_today: 0 });

    // An admin's reset of either connection starts the Reddit account's day afresh for both.
    await t.ctx.db
      .update(redditAccounts)
      .set({ quotaResetAt: new Date(clock.t) })
      .where(eq(redditAccounts.id, inTokyo.id));
    expect(await usedToday(t.ctx.db, await rowOf(inLosAngeles.id), clock.t)).toBe(0);
  });

  it('start at the defaults, change field by field, and refuse bad values with the rule', async () => {
    const project = await buildProject(t.ctx.db, t.config);
    const account = await buildAccount(t.ctx.db, project.id);
    const url = `/api/v1/reddit-accounts/${account.id}/settings`;
    const get = await t.app.inject({ url, headers: project.owner.auth });
    expect(get.json()).toEqual({
      account_id: account.id,
      delay_range_min: 30,
      delay_range_max: 120,
      working_days: [1, 2, 3, 4, 5],
      working_hours_start: 9,
      working_hours_end: 17,
      timezone: 'UTC',
    });

    const post = (payload: object) =>
      t.app.inject({ method: 'POST', url, headers: project.owner.auth, payload });
    const saved = await post({
      delay_range_min: 60,
      delay_range_max: 600,
      working_days: [6, 1, 7],
      working_hours_start: 22,
      working_hours_end: 6,
      timezone: 'America/New_York',
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({
      working_days: [1, 6, 7],
      working_hours_start: 22,
      timezone: 'America/New_York',
    });
    expect((await t.app.inject({ url, headers: project.owner.auth })).json()).toEqual(saved.json());

    for (const [payload, detail] of [
      [{ delay_range_min: 5 }, 'delay_range_min must be between 10 and 3600 seconds'],
      [{ delay_range_max: 4000 }, 'delay_range_max must be between 10 and 3600 seconds'],
      [{ working_hours_end: 24 }, 'working_hours_end must be an hour from 0 to 23'],
      [{ working_days: [0, 8] }, 'working_days must be days 1 (Monday) to 7 (Sunday)'],
      [{ timezone: 'Europe/Paris' }, 'timezone must be one of'],
    ] as const) {
      const res = await post(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().detail).toContain(detail);
      expect(res.json().code).toBe('validation_error');
    }
    // The minimum may not pass the maximum it keeps.
    const crossed = await post({ delay_range_min: 700 });
    expect(crossed.statusCode).toBe(400);
    expect(crossed.json()).toEqual({
      detail: 'delay_range_min must not be greater than delay_range_max',
      code: 'invalid_settings',
    });
    expect((await rowOf(account.id)).delayRangeMin).toBe(60);
  });

  it('are another project’s account: 404', async () => {
    const mine = await buildProject(t.ctx.db, t.config);
    const theirs = await buildProject(t.ctx.db, t.config);
    const account = await buildAccount(t.ctx.db, theirs.id);
    const res = await t.app.inject({
      url: `/api/v1/reddit-accounts/${account.id}/settings`,
      headers: mine.owner.auth,
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'Reddit account not found', code: 'not_found' });
  });
});

describe('GET accounts-auth-status', () => {
  it('lists each account with its wait in seconds', async () => {
    const project = await buildProject(t.ctx.db, t.config);
    // Every hour of every day is working time: only age holds an account back.
    const always = { workingDays: [1, 2, 3, 4, 5, 6, 7], workingHoursStart: 0, workingHoursEnd: 0 };
    const auth = { credentialId: credential.id, refreshTokenCiphertext: 'sealed', now: clock.t };
    const ready = await buildAccount(t.ctx.db, project.id, { ...auth, ...always });
    const young = await buildAccount(t.ctx.db, project.id, { ...auth, ...always, ageDays: 3 });
    const res = await t.app.inject({
      url: `/api/v1/projects/${project.id}/accounts-auth-status`,
      headers: project.owner.auth,
    });
    expect(res.statusCode).toBe(200);
    // The spec's name for the list (section 7), with the page it is.
    expect(res.json()).toMatchObject({ total: 2, limit: 100, offset: 0 });
    expect(res.json()).not.toHaveProperty('items');
    const byId = new Map(res.json().accounts.map((a: { id: string }) => [a.id, a]));
    expect(byId.get(ready.id)).toMatchObject({ can_send_now: true, wait_seconds: 0, remaining_capacity: 10 });
    expect(byId.get(young.id)).toMatchObject({
      can_send_now: false,
      remaining_capacity: 0,
      wait_seconds: 4 * 86_400,
      reason: ACCOUNT_TOO_YOUNG,
    });
  });

  it("counts today's claimed sends: a spent quota waits for the next local day", async () => {
    const project = await buildProject(t.ctx.db, t.config);
    const always = { workingDays: [1, 2, 3, 4, 5, 6, 7], workingHoursStart: 0, workingHoursEnd: 0 };
    const account = await buildAccount(t.ctx.db, project.id, {
      credentialId: credential.id,
      refreshTokenCiphertext: 'sealed',
      now: clock.t,
      ...always,
    });
    const claim = (state: 'sent' | 'sending' | 'failed', n: number) =>
      t.ctx.db.insert(dmMessages).values(Array.from({ length: n }, () => claimedDm(project, account, state)));
    await claim('sent', 8);
    await claim('failed', 3);
    const status = async () =>
      (
        await t.app.inject({
          url: `/api/v1/projects/${project.id}/accounts-auth-status`,
          headers: project.owner.auth,
        })
      ).json().accounts[0];
    expect(await status()).toMatchObject({ remaining_capacity: 2, can_send_now: true });
    await claim('sending', 2);
    const nextMidnight = Math.floor(clock.t / DAY) * DAY + DAY;
    expect(await status()).toMatchObject({
      remaining_capacity: 0,
      can_send_now: false,
      next_available_at: new Date(nextMidnight).toISOString(),
      wait_seconds: Math.ceil((nextMidnight - clock.t) / 1000),
      reason: DAILY_LIMIT_REASON,
    });
    expect((await accountsOf(project)).items[0]).toMatchObject({ remaining_today: 0 });
  });
});
