import { startRedditSim, type MessageStyle, type RedditSim } from '@threadreach/reddit-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  parseRedditAnswer,
  REDDIT_ENDPOINTS,
  type RedditAnswer,
  type RedditEndpointName,
} from './reddit.endpoints';

/**
 * The simulator's answers for every endpoint the product calls, successes and refusals, read with the
 * same function the client reads Reddit's answers with (and the recordings are checked with).
 */
const UA = 'web:threadreach-tests:0.1.0 (by /u/threadreach_bot)';
const REDIRECT_URI = 'http://127.0.0.1:9/callback';

describe.each<MessageStyle>(['classic', 'chat'])('simulator answers (%s messages)', (messageStyle) => {
  let sim: RedditSim;
  const clock = { t: Date.UTC(2026, 0, 5, 12) };
  const covered = new Set<RedditEndpointName>();

  beforeAll(async () => {
    sim = await startRedditSim({ port: 0, seed: 42, now: () => clock.t, messageStyle });
  });
  afterAll(() => sim.close());

  async function call(
    name: RedditEndpointName,
    path: string,
    auth: { bearer?: string; basic?: [string, string] },
    form?: Record<string, string>,
  ): Promise<RedditAnswer<unknown>> {
    const endpoint = REDDIT_ENDPOINTS[name];
    const headers: Record<string, string> = { 'user-agent': UA };
    if (auth.bearer) headers.authorization = `bearer ${auth.bearer}`;
    if (auth.basic) headers.authorization = `Basic ${Buffer.from(auth.basic.join(':')).toString('base64')}`;
    if (form) headers['content-type'] = 'application/x-www-form-urlencoded';
    const res = await fetch(new URL(path, sim.url), {
      method: endpoint.method,
      headers,
      body: form ? new URLSearchParams(form).toString() : undefined,
    });
    const answer = parseRedditAnswer(endpoint, res.status, await res.text());
    covered.add(name);
    expect(answer, `${endpoint.label} ${path} ${res.status}`).not.toMatchObject({ kind: 'invalid' });
    return answer;
  }

  /** A successful answer's value. */
  async function read<T = Record<string, unknown>>(...args: Parameters<typeof call>): Promise<T> {
    const answer = await call(...args);
    if (answer.kind !== 'data')
      throw new Error(`expected data from ${args[1]}, got ${JSON.stringify(answer)}`);
    return answer.value as T;
  }

  async function userToken(clientId: string, secret: string, username: string): Promise<string> {
    const consent = new URLSearchParams({
      client_id: clientId,
      response_type: 'code',
      state: 's',
      redirect_uri: REDIRECT_URI,
      duration: 'permanent',
      scope: 'identity read history privatemessages',
      username,
      authorize: 'Approve',
    });
    const approved = await fetch(new URL('/api/v1/authorize', sim.url), {
      method: 'POST',
      body: consent,
      redirect: 'manual',
      headers: { 'user-agent': UA },
    });
    const code = new URL(approved.headers.get('location')!).searchParams.get('code')!;
    const grant = await read<{ access_token: string; refresh_token?: string; expires_in: number }>(
      'accessToken',
      '/api/v1/access_token',
      { basic: [clientId, secret] },
      { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI },
    );
    expect(grant.refresh_token).toBeTruthy();
    expect(grant.expires_in).toBe(86_400);
    return grant.access_token;
  }

  it('OAuth: grants and refusals', async () => {
    const app = await read<{ access_token: string }>(
      'accessToken',
      '/api/v1/access_token',
      { basic: ['conformance-app', 'secret'] },
      { grant_type: 'client_credentials' },
    );
    expect(app.access_token).toBeTruthy();
    const wrongSecret = await call(
      'accessToken',
      '/api/v1/access_token',
      { basic: ['conformance-app', 'wrong'] },
      { grant_type: 'client_credentials' },
    );
    expect(wrongSecret).toMatchObject({ kind: 'error', status: 401, reason: 'invalid_client' });
    const badGrant = await call(
      'accessToken',
      '/api/v1/access_token',
      { basic: ['conformance-app', 'secret'] },
      { grant_type: 'refresh_token', refresh_token: 'not-a-refresh-token' },
    );
    expect(badGrant).toMatchObject({ kind: 'error', status: 400, reason: 'invalid_grant' });
  });

  it('reads, and the errors of reads', async () => {
    const token = (
      await read<{ access_token: string }>(
        'accessToken',
        '/api/v1/access_token',
        { basic: ['conformance-reader', 'secret'] },
        { grant_type: 'client_credentials' },
      )
    ).access_token;
    const bearer = { bearer: token };
    type Listing = { data: { children: Array<{ kind: string; data: Record<string, string> }> } };

    const posts = await read<Listing>('subredditNew', '/r/startups+SaaS/new?limit=25&raw_json=1', bearer);
    expect(posts.data.children.length).toBe(25);
    const comments = await read<Listing>('subredditComments', '/r/startups/comments?limit=25', bearer);
    await read('search', '/search?q=tool&sort=new&limit=25', bearer);
    await read('subredditSearch', '/r/startups/search?q=tool&restrict_sr=1&sort=new', bearer);
    await read('subredditsSearch', '/subreddits/search?q=saas&limit=10', bearer);
    await read('subredditAbout', '/r/startups/about', bearer);
    const author = posts.data.children[0]!.data.author!;
    await read('userAbout', `/user/${author}/about`, bearer);
    const suspended = await read<{ data: { is_suspended: boolean } }>(
      'userAbout',
      '/user/suspended_seller/about',
      bearer,
    );
    expect(suspended.data.is_suspended).toBe(true);
    await read('userSubmitted', `/user/${author}/submitted?limit=5`, bearer);
    await read('userComments', `/user/${author}/comments?limit=5`, bearer);
    const ids = [posts.data.children[0]!.data.name, comments.data.children[0]!.data.name];
    const info = await read<Listing>('info', `/api/info?id=${ids.join(',')}`, bearer);
    expect(info.data.children.map((c) => c.kind)).toEqual(['t3', 't1']);

    expect(await call('subredditAbout', '/r/no_such_subreddit_x/about', bearer)).toMatchObject({
      kind: 'error',
      status: 404,
    });
    expect(await call('userAbout', '/user/nobody_by_this_name/about', bearer)).toMatchObject({
      kind: 'error',
      status: 404,
    });
    expect(await call('subredditNew', '/r/startups/new', { bearer: 'expired-or-unknown' })).toMatchObject({
      kind: 'error',
      status: 401,
    });
    expect(await call('me', '/api/v1/me', bearer)).toMatchObject({ kind: 'error', status: 403 });
  });

  it('an account: me, DMs and their refusals, every message box, marking read', async () => {
    const token = await userToken('conformance-web', 'secret', 'demo_founder');
    const bearer = { bearer: token };
    const me = await read<{ name: string }>('me', '/api/v1/me', bearer);
    expect(me.name).toBe('demo_founder');

    type Compose = { json: { errors: Array<[string, string, string | null]> } };
    const posts = await read<{ data: { children: Array<{ data: { author: string } }> } }>(
      'subredditNew',
      '/r/startups+SaaS+Entrepreneur/new?limit=100',
      bearer,
    );
    const codes = new Set<string>();
    for (const { data } of posts.data.children.slice(0, 40)) {
      const answer = await read<Compose>('compose', '/api/compose', bearer, {
        api_type: 'json',
        to: data.author,
        subject: 'Your post',
        text: 'Hi there',
      });
      codes.add(answer.json.errors[0]?.[0] ?? 'ok');
    }
    const unknown = await read<Compose>('compose', '/api/compose', bearer, {
      api_type: 'json',
      to: 'nobody_by_this_name',
      subject: 's',
      text: 't',
    });
    codes.add(unknown.json.errors[0]![0]);
    expect([...codes]).toEqual(
      expect.arrayContaining(['ok', 'NOT_WHITELISTED_BY_USER_MESSAGE', 'USER_DOESNT_EXIST']),
    );

    const fresh = { bearer: await userToken('conformance-web', 'secret', 'fresh_account') };
    const limited: Compose[] = [];
    for (const to of ['demo_founder', 'growth_marketer', 'demo_founder']) {
      limited.push(
        await read<Compose>('compose', '/api/compose', fresh, {
          api_type: 'json',
          to,
          subject: 's',
          text: 't',
        }),
      );
    }
    expect(limited[2]!.json.errors[0]![0]).toBe('RATELIMIT');

    const suspended = { bearer: await userToken('conformance-web', 'secret', 'suspended_seller') };
    const refused = await call('compose', '/api/compose', suspended, {
      api_type: 'json',
      to: 'demo_founder',
      subject: 's',
      text: 't',
    });
    expect(refused).toMatchObject({ kind: 'error', status: 403 });

    clock.t += 24 * 3600_000;
    const later = { bearer: await userToken('conformance-web', 'secret', 'demo_founder') };
    type Box = { data: { children: Array<{ data: { name: string } }> } };
    const inbox = await read<Box>('inbox', '/message/inbox?limit=100', later);
    expect(inbox.data.children.length).toBeGreaterThan(0);
    await read('messages', '/message/messages?limit=100', later);
    await read('sent', '/message/sent?limit=100', later);
    const unread = await read<Box>('unread', '/message/unread?limit=100&mark=false', later);
    await read('readMessage', '/api/read_message', later, { id: unread.data.children[0]!.data.name });
  });

  it('covers every endpoint the product calls', () => {
    expect([...covered].sort()).toEqual(Object.keys(REDDIT_ENDPOINTS).sort());
  });
});
