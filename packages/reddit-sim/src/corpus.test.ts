import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Corpus } from './corpus/corpus';
import { startRedditSim } from './index';
import { START, type TestSim, UA, startTestSim } from './test-support';
import type { RedditListing, RedditPost } from './types';

describe('corpus', () => {
  const corpus = new Corpus(42, START);

  it('has at least 150 subreddits over at least 15 topics, with unique names', () => {
    expect(corpus.subreddits.length).toBeGreaterThanOrEqual(150);
    expect(corpus.topicCount()).toBeGreaterThanOrEqual(15);
    const names = corpus.subreddits.map((s) => s.name.toLowerCase());
    expect(new Set(names).size).toBe(names.length);
    for (const name of ['SaaS', 'startups', 'personalfinance', 'HomeImprovement']) {
      expect(corpus.subreddit(name)?.name).toBe(name);
    }
    for (const s of corpus.subreddits) {
      expect(s.description.length).toBeGreaterThan(5);
      expect(s.subscribers).toBeGreaterThan(1000);
    }
  });

  it('has authors who refuse DMs, suspended ones, deleted ones, and young accounts', () => {
    const users = corpus.users.users.filter((u) => !u.loginable);
    expect(users.some((u) => u.refusesDms)).toBe(true);
    expect(users.some((u) => u.suspended)).toBe(true);
    expect(users.some((u) => u.deleted)).toBe(true);
    expect(users.some((u) => START - u.createdMs < 7 * 86_400_000)).toBe(true);
  });
});

describe('content over HTTP', () => {
  let a: TestSim;
  let b: TestSim;
  let c: TestSim;
  beforeAll(async () => {
    [a, b, c] = await Promise.all([startTestSim(), startTestSim(), startTestSim({ seed: 7 })]);
  });
  afterAll(async () => {
    await Promise.all([a.sim.close(), b.sim.close(), c.sim.close()]);
  });

  const listing = async (sim: TestSim, path: string) => {
    const res = await sim.get(path, await sim.appToken());
    return (await res.json()) as RedditListing<RedditPost>;
  };

  it('is the same for the same seed and different for another seed', async () => {
    const path = '/r/SaaS+Fitness+travel/new?limit=50&raw_json=1';
    const first = await listing(a, path);
    expect(await listing(b, path)).toEqual(first);
    const other = await listing(c, path);
    expect(other.data.children.map((x) => x.data.title)).not.toEqual(
      first.data.children.map((x) => x.data.title),
    );
    expect(await listing(a, '/r/SaaS/comments?limit=20')).toEqual(
      await listing(b, '/r/SaaS/comments?limit=20'),
    );
  });

  it('includes people asking for a tool or a recommendation', async () => {
    const list = await listing(a, '/r/SaaS+marketing+freelance+ecommerce/new?limit=100');
    const asks = list.data.children.filter((x) =>
      /is there a tool|can anyone recommend|looking for an app|recommendations? for/i.test(x.data.title),
    );
    expect(asks.length).toBeGreaterThan(5);
  });

  it('keeps new posts and comments arriving as the clock moves', async () => {
    const before = await listing(a, '/r/SaaS+startups+Entrepreneur+smallbusiness/new?limit=100');
    const newestBefore = before.data.children[0]!.data.created_utc;
    a.clock.advance(10 * 60_000);
    const after = await listing(a, '/r/SaaS+startups+Entrepreneur+smallbusiness/new?limit=100');
    const fresh = after.data.children.filter((x) => x.data.created_utc > newestBefore);
    expect(fresh.length).toBeGreaterThan(2);
    // Items already seen keep their identity and text.
    const seen = new Map(before.data.children.map((x) => [x.data.name, x.data.title]));
    for (const x of after.data.children)
      if (seen.has(x.data.name)) expect(x.data.title).toBe(seen.get(x.data.name));

    const all = await listing(a, '/r/all/new?limit=100');
    a.clock.advance(60_000);
    const allLater = await listing(a, '/r/all/new?limit=100');
    expect(allLater.data.children[0]!.data.created_utc).toBeGreaterThan(
      all.data.children[0]!.data.created_utc,
    );
  });

  it('uses the internal clock and advance() when no clock is injected', async () => {
    const sim = await startRedditSim({ startTime: START });
    try {
      const headers = { 'user-agent': UA };
      const before = (await (await fetch(`${sim.url}/__sim/clock`, { headers })).json()) as { now: number };
      sim.advance(3600_000);
      expect(sim.now() - before.now).toBeGreaterThanOrEqual(3600_000);
      const res = await fetch(`${sim.url}/__sim/clock/advance`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ ms: 60_000 }),
      });
      expect(res.status).toBe(200);
      expect(sim.now() - before.now).toBeGreaterThanOrEqual(3660_000);
    } finally {
      await sim.close();
    }
    expect(() => a.sim.advance(1000)).toThrow();
    const refused = await fetch(`${a.sim.url}/__sim/clock/advance`, { method: 'POST', body: '{"ms":1}' });
    expect(refused.status).toBe(409);
  });
});
