import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Corpus } from './corpus/corpus';
import { START, type TestSim, startTestSim } from './test-support';
import type { RedditComment, RedditListing, RedditPost, RedditSubreddit, RedditUser } from './types';

let t: TestSim;
let token: string;
beforeAll(async () => {
  t = await startTestSim();
  token = (await t.userToken()).access_token;
});
afterAll(async () => {
  await t.sim.close();
});

async function getJson<T>(path: string): Promise<T> {
  const res = await t.get(path, token);
  expect(res.status, path).toBe(200);
  return (await res.json()) as T;
}
const posts = (path: string) => getJson<RedditListing<RedditPost>>(path);
const comments = (path: string) => getJson<RedditListing<RedditComment>>(path);

describe('GET /r/{sub}/new', () => {
  it('returns a Listing of t3 with Reddit fields, newest first, 25 by default', async () => {
    const list = await posts('/r/SaaS/new');
    expect(list.kind).toBe('Listing');
    expect(list.data.dist).toBe(25);
    expect(list.data.children).toHaveLength(25);
    expect(list.data.before).toBeNull();
    expect(list.data.after).toBe(list.data.children[24]?.data.name);
    const first = list.data.children[0];
    expect(first?.kind).toBe('t3');
    const post = first!.data;
    expect(post.name).toBe(`t3_${post.id}`);
    expect(post.subreddit).toBe('SaaS');
    expect(post.subreddit_name_prefixed).toBe('r/SaaS');
    expect(post.permalink).toMatch(new RegExp(`^/r/SaaS/comments/${post.id}/[a-z0-9_]+/$`));
    expect(post.url).toBe(`https://www.reddit.com${post.permalink}`);
    expect(post.title.length).toBeGreaterThan(5);
    expect(typeof post.selftext).toBe('string');
    expect(typeof post.author).toBe('string');
    expect(typeof post.score).toBe('number');
    expect(typeof post.num_comments).toBe('number');
    expect(post.created_utc).toBeLessThanOrEqual(START / 1000);
    const times = list.data.children.map((c) => c.data.created_utc);
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it('accepts .json and caps limit at 100', async () => {
    const list = await posts('/r/saas/new.json?limit=500&raw_json=1');
    expect(list.data.children).toHaveLength(100);
    expect((await posts('/r/SaaS/new?limit=3')).data.children).toHaveLength(3);
  });

  it('pages with after and before by fullname', async () => {
    const page1 = await posts('/r/startups/new?limit=10');
    const page2 = await posts(`/r/startups/new?limit=10&after=${page1.data.after}`);
    const all = await posts('/r/startups/new?limit=20');
    expect([...page1.data.children, ...page2.data.children].map((c) => c.data.name)).toEqual(
      all.data.children.map((c) => c.data.name),
    );
    expect(page2.data.before).toBe(page2.data.children[0]?.data.name);
    const back = await posts(`/r/startups/new?limit=10&before=${page2.data.children[0]?.data.name}`);
    expect(back.data.children.map((c) => c.data.name)).toEqual(page1.data.children.map((c) => c.data.name));
    expect(back.data.before).toBeNull();
  });

  it('stops at 1000 items deep', async () => {
    let after: string | null = null;
    let total = 0;
    for (let page = 0; page < 12; page++) {
      const list: RedditListing<RedditPost> = await posts(
        `/r/personalfinance/new?limit=100${after ? `&after=${after}` : ''}`,
      );
      expect(list.data.dist).toBe(list.data.children.length);
      total += list.data.children.length;
      after = list.data.after;
      if (!after) break;
    }
    expect(total).toBe(1000);
    expect(after).toBeNull();
  });

  it('answers 404 for an unknown subreddit', async () => {
    const res = await t.get('/r/definitely_not_a_sub_xyz/new', token);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: 'Not Found', error: 404 });
  });
});

describe('GET /r/{sub}/comments', () => {
  it('returns newest comments as t1 with link and parent ids', async () => {
    const list = await comments('/r/Fitness/comments?limit=30');
    expect(list.data.children).toHaveLength(30);
    const c = list.data.children[0]!;
    expect(c.kind).toBe('t1');
    expect(c.data.name).toBe(`t1_${c.data.id}`);
    expect(c.data.subreddit).toBe('Fitness');
    expect(c.data.link_id).toMatch(/^t3_/);
    expect(c.data.parent_id).toMatch(/^t[13]_/);
    expect(c.data.link_title?.length).toBeGreaterThan(3);
    expect(c.data.permalink).toContain(`/${c.data.id}/`);
    expect(c.data.body.length).toBeGreaterThan(3);
    const times = list.data.children.map((x) => x.data.created_utc);
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });
});

describe('multireddits', () => {
  it('merges several subreddits newest first for posts and comments', async () => {
    const list = await posts('/r/SaaS+startups+marketing/new?limit=100');
    const subs = new Set(list.data.children.map((c) => c.data.subreddit));
    expect([...subs].sort()).toEqual(['SaaS', 'marketing', 'startups']);
    const times = list.data.children.map((c) => c.data.created_utc);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const next = await posts(`/r/SaaS+startups+marketing/new?limit=100&after=${list.data.after}`);
    expect(next.data.children[0]!.data.created_utc).toBeLessThanOrEqual(times[times.length - 1]!);

    const cs = await comments('/r/SaaS+startups/comments?limit=100');
    expect(new Set(cs.data.children.map((c) => c.data.subreddit))).toEqual(new Set(['SaaS', 'startups']));
  });

  it('skips unknown names and is 404 only when none exist', async () => {
    const list = await posts('/r/SaaS+nope_nope_nope/new?limit=5');
    expect(list.data.children.every((c) => c.data.subreddit === 'SaaS')).toBe(true);
    expect((await t.get('/r/nope_a+nope_b/new', token)).status).toBe(404);
  });
});

describe('search', () => {
  it('restrict_sr searches one subreddit, finding people asking for tools', async () => {
    const list = await posts('/r/SaaS/search?q=tool&restrict_sr=1&sort=new&limit=50');
    expect(list.data.children.length).toBeGreaterThan(0);
    for (const c of list.data.children) {
      expect(c.data.subreddit).toBe('SaaS');
      expect(`${c.data.title} ${c.data.selftext}`.toLowerCase()).toContain('tool');
    }
    const times = list.data.children.map((c) => c.data.created_utc);
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it('/search covers all subreddits, with phrases, OR, and t windows', async () => {
    const wide = await posts('/search?q=%22is%20there%20a%20tool%22&sort=new&limit=100');
    expect(wide.data.children.length).toBeGreaterThan(10);
    expect(new Set(wide.data.children.map((c) => c.data.subreddit)).size).toBeGreaterThan(5);
    for (const c of wide.data.children) {
      expect(`${c.data.title}\n${c.data.selftext}`.toLowerCase()).toContain('is there a tool');
    }
    const hour = await posts('/search?q=recommend%20OR%20tool&t=hour&limit=100');
    for (const c of hour.data.children)
      expect(c.data.created_utc).toBeGreaterThanOrEqual(START / 1000 - 3600);
    const top = await posts('/search?q=app&sort=top&t=week&limit=20');
    const scores = top.data.children.map((c) => c.data.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    const byComments = await posts('/search?q=app&sort=comments&t=week&limit=20');
    const counts = byComments.data.children.map((c) => c.data.num_comments);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
  });

  it('/r/{sub}/search without restrict_sr searches everywhere, like Reddit', async () => {
    const list = await posts('/r/SaaS/search?q=recommend&limit=100');
    expect(new Set(list.data.children.map((c) => c.data.subreddit)).size).toBeGreaterThan(1);
  });

  it('/subreddits/search finds subreddits by name and description', async () => {
    const list = await getJson<RedditListing<RedditSubreddit>>('/subreddits/search?q=finance');
    const names = list.data.children.map((c) => c.data.display_name);
    expect(names).toContain('personalfinance');
    expect(list.data.children[0]?.kind).toBe('t5');
  });
});

describe('about endpoints', () => {
  it('/r/{sub}/about is a t5 with subscribers and description', async () => {
    const about = await getJson<{ kind: string; data: RedditSubreddit }>('/r/personalfinance/about');
    expect(about.kind).toBe('t5');
    expect(about.data).toMatchObject({
      display_name: 'personalfinance',
      url: '/r/personalfinance/',
      over18: false,
    });
    expect(about.data.subscribers).toBeGreaterThan(1_000_000);
    expect(about.data.public_description.length).toBeGreaterThan(10);
    expect((await t.get('/r/not_here_at_all/about', token)).status).toBe(404);
  });

  it('/user/{name}/about: normal, suspended, deleted and unknown accounts', async () => {
    const corpus = new Corpus(42, START);
    const normal = corpus.users.users.find((u) => !u.suspended && !u.deleted && !u.loginable)!;
    const suspended = corpus.users.users.find((u) => u.suspended && !u.loginable)!;
    const deleted = corpus.users.users.find((u) => u.deleted)!;

    const about = await getJson<{ kind: string; data: RedditUser }>(`/user/${normal.name}/about`);
    expect(about.kind).toBe('t2');
    expect(about.data).toMatchObject({ name: normal.name, is_suspended: false });
    expect(about.data.created_utc).toBe(Math.floor(normal.createdMs / 1000));
    expect(typeof about.data.comment_karma).toBe('number');
    expect(typeof about.data.link_karma).toBe('number');

    const sus = await getJson<{ kind: string; data: RedditUser }>(`/user/${suspended.name}/about`);
    expect(sus.data).toEqual({ name: suspended.name, is_suspended: true });

    expect((await t.get(`/user/${deleted.name}/about`, token)).status).toBe(404);
    expect((await t.get('/user/no_such_user_here_123/about', token)).status).toBe(404);
  });

  it('/user/{name}/submitted and /comments list only that author', async () => {
    const latest = await posts('/r/SaaS/new?limit=1');
    const author = latest.data.children[0]!.data.author;
    const submitted = await posts(`/user/${author}/submitted?limit=100`);
    expect(submitted.data.children.length).toBeGreaterThan(0);
    expect(submitted.data.children.map((c) => c.data.name)).toContain(latest.data.children[0]!.data.name);
    for (const c of submitted.data.children) expect(c.data.author).toBe(author);

    const cs = await comments(`/user/${author}/comments?limit=100`);
    expect(cs.data.children.length).toBeGreaterThan(0);
    for (const c of cs.data.children) expect(c.data.author).toBe(author);
  });
});

describe('output details', () => {
  it('HTML-escapes text unless raw_json=1', async () => {
    const raw = await posts('/r/personalfinance/new?limit=100&raw_json=1');
    const withAmp = raw.data.children.find((c) => c.data.selftext.includes('P&L'));
    expect(withAmp).toBeDefined();
    const escaped = await posts(`/r/personalfinance/new?limit=100`);
    const same = escaped.data.children.find((c) => c.data.name === withAmp!.data.name)!;
    expect(same.data.selftext).toContain('P&amp;L');
  });

  it('/api/info resolves fullnames', async () => {
    const list = await posts('/r/SaaS/new?limit=2');
    const c = await comments('/r/SaaS/comments?limit=1');
    const ids = [...list.data.children.map((x) => x.data.name), c.data.children[0]!.data.name];
    const found = await getJson<RedditListing<unknown>>(`/api/info?id=${ids.join(',')}`);
    expect(found.data.children.map((x) => x.kind)).toEqual(['t3', 't3', 't1']);
  });
});
