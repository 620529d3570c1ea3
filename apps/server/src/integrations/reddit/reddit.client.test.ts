import { describe, expect, it } from 'vitest';
import type { RedditClient } from './reddit.client';
import { redditUserAgent } from './reddit.transport';
import { RedditAuthError, RedditUnavailableError, RedditUnknownOutcomeError } from './reddit.errors';
import { useRedditRig } from './use-reddit-rig';
import { requestTotals } from './request-stats';

/** Contract tests: the server's Reddit client against the simulator, endpoint by endpoint. */
const env = useRedditRig();

/** Connects `username` through the consent page and returns the account's refresh token. */
async function connectAccount(client: RedditClient, username: string): Promise<string> {
  const redirectUri = 'http://127.0.0.1:9/api/v1/auth/reddit/callback';
  const url = new URL(client.authorizeUrl({ state: 'st4te', redirectUri }));
  expect(url.searchParams.get('duration')).toBe('permanent');
  expect(url.searchParams.get('scope')).toBe('identity read history privatemessages');
  const consent = await fetch(url, { headers: { 'user-agent': 'test-browser/1.0 (by /u/tester)' } });
  expect(consent.status).toBe(200);
  const html = await consent.text();
  const form = new URLSearchParams();
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
    form.set(m[1]!, m[2]!.replace(/&amp;/g, '&'));
  form.set('username', username);
  form.set('authorize', 'Approve');
  const approved = await fetch(new URL('/api/v1/authorize', env.rig.sim.url), {
    method: 'POST',
    body: form,
    redirect: 'manual',
    headers: { 'user-agent': 'test-browser/1.0 (by /u/tester)' },
  });
  const back = new URL(approved.headers.get('location')!);
  expect(back.searchParams.get('state')).toBe('st4te');
  const grant = await client.exchangeCode(back.searchParams.get('code')!, redirectUri);
  expect(grant.refreshToken).toBeTruthy();
  expect(grant.scope).toContain('privatemessages');
  return grant.refreshToken!;
}

describe('Reddit client against the simulator', () => {
  it('sends the User-Agent form Reddit asks for', () => {
    expect(redditUserAgent('threadreach', '0.1.0', 'threadreach_bot')).toBe(
      'web:threadreach:0.1.0 (by /u/threadreach_bot)',
    );
    expect(redditUserAgent('threadreach', '0.1.0', 'u/Some Name!')).toBe(
      'web:threadreach:0.1.0 (by /u/Some_Name_)',
    );
  });

  it('reads new posts of one subreddit and of a multireddit, page by page', async () => {
    const client = env.rig.client();
    const search = await client.app.searchSubreddits('saas', { limit: 5 });
    const names = search.data.children.map((c) => c.data.display_name);
    expect(names.length).toBeGreaterThan(1);

    const one = await client.app.listNew([names[0]!], { limit: 10 });
    expect(one.kind).toBe('Listing');
    expect(one.data.children).toHaveLength(10);
    expect(one.data.children[0]!.kind).toBe('t3');
    const post = one.data.children[0]!.data;
    expect(post.subreddit).toBe(names[0]);
    expect(typeof post.title).toBe('string');
    expect(post.name).toMatch(/^t3_/);

    const next = await client.app.listNew([names[0]!], { limit: 10, after: one.data.after });
    const firstIds = new Set(one.data.children.map((c) => c.data.id));
    expect(next.data.children.some((c) => firstIds.has(c.data.id))).toBe(false);

    const multi = await client.app.listNew(names.slice(0, 3), { limit: 100 });
    const subs = new Set(multi.data.children.map((c) => c.data.subreddit));
    expect(subs.size).toBeGreaterThan(1);
    for (const s of subs) expect(names.slice(0, 3)).toContain(s);
  });

  it('reads the newest comments of a multireddit', async () => {
    const client = env.rig.client();
    const listing = await client.app.listComments(['startups', 'SaaS'], { limit: 25 });
    expect(listing.data.children[0]!.kind).toBe('t1');
    const comment = listing.data.children[0]!.data;
    expect(comment.name).toMatch(/^t1_/);
    expect(comment.link_id).toMatch(/^t3_/);
    expect(typeof comment.body).toBe('string');
  });

  it('searches site-wide and inside one subreddit, and finds subreddits with their members', async () => {
    const client = env.rig.client();
    const site = await client.app.search({ q: 'recommend', sort: 'new', t: 'all', limit: 25 });
    expect(site.data.children.length).toBeGreaterThan(0);
    const inSub = await client.app.search({ q: 'tool', subreddit: 'startups', sort: 'new', limit: 25 });
    for (const c of inSub.data.children) expect(c.data.subreddit.toLowerCase()).toBe('startups');

    const about = await client.app.aboutSubreddit('startups');
    expect(about?.display_name.toLowerCase()).toBe('startups');
    expect(about!.subscribers).toBeGreaterThan(0);
    expect(typeof about!.public_description).toBe('string');
    expect(await client.app.aboutSubreddit('no_such_subreddit_x')).toBeNull();
  });

  it('reads authors: about, submitted and comments; suspended and unknown accounts', async () => {
    const client = env.rig.client();
    const posts = await client.app.listNew(['startups'], { limit: 5 });
    const author = posts.data.children[0]!.data.author;
    const about = await client.app.aboutUser(author);
    expect(about?.name).toBe(author);
    expect(typeof about!.created_utc).toBe('number');
    expect(typeof about!.comment_karma).toBe('number');
    expect(about!.is_suspended).toBe(false);
    const submitted = await client.app.userSubmitted(author, { limit: 5 });
    for (const c of submitted.data.children) expect(c.data.author).toBe(author);
    const comments = await client.app.userComments(author, { limit: 5 });
    for (const c of comments.data.children) expect(c.data.author).toBe(author);

    expect((await client.app.aboutUser('suspended_seller'))?.is_suspended).toBe(true);
    expect(await client.app.aboutUser('nobody_by_this_name')).toBeNull();

    const info = await client.app.info([posts.data.children[0]!.data.name]);
    expect(info.data.children[0]!.data.name).toBe(posts.data.children[0]!.data.name);
  });

  it('connects an account, sends DMs and reads sent messages and replies', async () => {
    const client = env.rig.client();
    const refreshToken = await connectAccount(client, 'demo_founder');
    const account = client.forAccount({ id: 'acct-1', refreshToken });
    expect((await account.me()).name).toBe('demo_founder');

    const posts = await client.app.listNew(['startups', 'SaaS', 'Entrepreneur', 'smallbusiness'], {
      limit: 100,
    });
    const authors = [...new Set(posts.data.children.map((c) => c.data.author))].filter(
      (a) => a !== '[deleted]',
    );
    let sentTo: string | null = null;
    let refusedBy: string | null = null;
    for (const to of authors.slice(0, 40)) {
      const result = await account.compose({ to, subject: 'Your post', text: `Hi ${to}, saw your post.` });
      if (result.ok) sentTo ??= to;
      else if (result.code === 'NOT_WHITELISTED_BY_USER_MESSAGE') refusedBy ??= to;
      if (sentTo && refusedBy) break;
    }
    expect(sentTo).not.toBeNull();
    expect(refusedBy).not.toBeNull();
    expect(env.rig.sim.inspect.messages({ to: sentTo!, from: 'demo_founder' })).toHaveLength(1);

    const unknown = await account.compose({ to: 'nobody_by_this_name', subject: 's', text: 't' });
    expect(unknown).toMatchObject({ ok: false, code: 'USER_DOESNT_EXIST' });

    const sent = await account.sent({ limit: 100 });
    expect(sent.data.children.some((c) => c.data.dest === sentTo)).toBe(true);

    env.rig.clock.t += 7 * 3600_000; // replies arrive within 6 hours of sim time
    const inbox = await account.inbox({ limit: 100 });
    expect(inbox.data.children.length).toBeGreaterThan(0);
    const reply = inbox.data.children[0]!.data;
    expect(reply.subject).toMatch(/^re: /);
    expect((await account.messages({ limit: 100 })).data.children.map((c) => c.data.name)).toContain(
      reply.name,
    );
    const unreadNames = async () =>
      (await account.unread({ limit: 100 })).data.children.map((c) => c.data.name);
    expect(await unreadNames()).toContain(reply.name);
    await account.markRead([reply.name]);
    expect(await unreadNames()).not.toContain(reply.name);
  });

  it('reports a suspended sender and a fresh account over its compose limit', async () => {
    const client = env.rig.client();
    const suspended = client.forAccount({
      id: 's',
      refreshToken: await connectAccount(client, 'suspended_seller'),
    });
    await expect(suspended.compose({ to: 'demo_founder', subject: 's', text: 't' })).rejects.toMatchObject({
      status: 403,
    });

    const fresh = client.forAccount({ id: 'f', refreshToken: await connectAccount(client, 'fresh_account') });
    const results = [];
    for (const to of ['demo_founder', 'growth_marketer', 'demo_founder']) {
      results.push(await fresh.compose({ to, subject: 's', text: 't' }));
    }
    expect(results[2]).toMatchObject({ ok: false, code: 'RATELIMIT' });
    expect((results[2] as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThan(0);
  });

  it('renews an expired app token and counts each token as a client created', async () => {
    const client = env.rig.client();
    await client.app.listNew(['startups'], { limit: 1 });
    env.rig.clock.t += 86_400_000 + 1000; // past the token's expires_in (a day)
    await client.app.listNew(['startups'], { limit: 1 });
    const totals = (await requestTotals(env.database.db, [client.credentialId])).get(client.credentialId)!;
    expect(totals.tokensIssued).toBe(2);
    expect(totals.total).toBe(4);
    expect(totals.successes).toBe(4);
  });

  it('refuses a wrong client secret with a clear error', async () => {
    const good = env.rig.client();
    await good.app.listNew(['startups'], { limit: 1 }); // pins the secret in the simulator
    const bad = env.rig.client({ clientId: good.clientId, clientSecret: 'wrong' });
    await expect(bad.app.listNew(['startups'], { limit: 1 })).rejects.toBeInstanceOf(RedditAuthError);
    expect((await bad.testConnection()).canConnect).toBe(false);
    expect((await good.testConnection()).canConnect).toBe(true);
  });

  it('retries 5xx answers and resets on reads, with backoff, and counts every attempt', async () => {
    const client = env.rig.client();
    await client.app.listNew(['startups'], { limit: 1 });
    try {
      env.rig.sim.faults.add({ kind: 'status', status: 503, count: 2, clientId: client.clientId });
      env.rig.sim.faults.add({ kind: 'reset', count: 1, clientId: client.clientId, path: '/r/*/about' });
      const before = env.rig.clock.t;
      await client.app.listNew(['startups'], { limit: 1 });
      expect(env.rig.clock.t).toBeGreaterThan(before); // backed off between attempts
      expect(await client.app.aboutSubreddit('startups')).not.toBeNull();
    } finally {
      env.rig.sim.faults.clear();
    }
    const log = env.rig.sim.inspect.requestLog({ clientId: client.clientId });
    expect(log.filter((r) => r.status === 503)).toHaveLength(2);
    const totals = (await requestTotals(env.database.db, [client.credentialId])).get(client.credentialId)!;
    expect(totals.failures).toBe(3);
  });

  it('gives up on reads after bounded retries', async () => {
    const client = env.rig.client({}, { maxAttempts: 3 });
    await client.app.listNew(['startups'], { limit: 1 });
    try {
      env.rig.sim.faults.add({ kind: 'status', status: 500, count: 5, clientId: client.clientId });
      await expect(client.app.listNew(['startups'], { limit: 1 })).rejects.toBeInstanceOf(
        RedditUnavailableError,
      );
    } finally {
      env.rig.sim.faults.clear();
    }
    expect(
      env.rig.sim.inspect.requestLog({ clientId: client.clientId }).filter((r) => r.status === 500),
    ).toHaveLength(3);
  });

  it('never resends a DM whose connection broke after Reddit took it', async () => {
    const client = env.rig.client();
    const account = client.forAccount({
      id: 'r',
      refreshToken: await connectAccount(client, 'growth_marketer'),
    });
    try {
      env.rig.sim.faults.add({ kind: 'reset', count: 1, path: '/api/compose', clientId: client.clientId });
      await expect(
        account.compose({ to: 'demo_founder', subject: 'once', text: 'only once' }),
      ).rejects.toBeInstanceOf(RedditUnknownOutcomeError);
    } finally {
      env.rig.sim.faults.clear();
    }
    expect(
      env.rig.sim.inspect.messages({ from: 'growth_marketer' }).filter((m) => m.subject === 'once'),
    ).toHaveLength(1);
  });

  it('holds back when X-Ratelimit-Remaining reaches 0 until X-Ratelimit-Reset, without a 429', async () => {
    const clientSecret = 'shared-window-secret';
    const client = env.rig.client({ clientSecret });
    await client.app.listNew(['startups'], { limit: 1 });
    // Another consumer of the same client id (outside this budget) uses up the rest of the window.
    const tokenRes = await fetch(new URL('/api/v1/access_token', env.rig.sim.url), {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${client.clientId}:${clientSecret}`).toString('base64')}`,
        'user-agent': 'other-tool/1.0 (by /u/someone)',
      },
      body: new URLSearchParams({ grant_type: 'client_credentials' }),
    });
    const { access_token } = (await tokenRes.json()) as { access_token: string };
    const other = () =>
      fetch(new URL('/r/startups/about', env.rig.sim.url), {
        headers: { authorization: `bearer ${access_token}`, 'user-agent': 'other-tool/1.0 (by /u/someone)' },
      }).then((res) => res.arrayBuffer());
    // Reddit's window: 1000 requests per 600 s.
    for (let sent = 0; sent < 998; sent += 50) {
      await Promise.all(Array.from({ length: Math.min(50, 998 - sent) }, other));
    }
    await client.app.listNew(['startups'], { limit: 1 }); // the 1000th: Remaining "0.0"
    const before = env.rig.clock.t;
    await client.app.listNew(['startups'], { limit: 1 });
    expect(env.rig.clock.t - before).toBeGreaterThan(1000);
    expect(
      env.rig.sim.inspect.requestLog({ clientId: client.clientId }).filter((r) => r.status === 429),
    ).toHaveLength(0);
  });

  it('waits out a 429 until its Retry-After before the next request', async () => {
    const client = env.rig.client();
    await client.app.listNew(['startups'], { limit: 1 });
    try {
      env.rig.sim.faults.add({ kind: 'rate-limit', retryAfter: 30, count: 1, clientId: client.clientId });
      await client.app.listNew(['startups'], { limit: 1 });
    } finally {
      env.rig.sim.faults.clear();
    }
    const log = env.rig.sim.inspect.requestLog({ clientId: client.clientId });
    const limited = log.findIndex((r) => r.status === 429);
    expect(limited).toBeGreaterThan(-1);
    expect(log[limited + 1]!.at - log[limited]!.at).toBeGreaterThanOrEqual(30_000);
  });
});
