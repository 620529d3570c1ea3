import { request } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readRedditRateLimit } from '@threadreach/reddit-schemas';
import { type TestSim, startTestSim } from './test-support';

let t: TestSim;
beforeEach(async () => {
  t = await startTestSim();
});
afterEach(async () => {
  await t.sim.close();
});

const headersOf = (res: Response) => ({
  used: res.headers.get('x-ratelimit-used'),
  remaining: res.headers.get('x-ratelimit-remaining'),
  reset: res.headers.get('x-ratelimit-reset'),
});

/** Sends `n` API calls with a token, a few at a time; returns the statuses. */
async function burst(n: number, token: string, path = '/r/SaaS/about'): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < n; i += 50) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(50, n - i) }, () => t.get(path, token).then((r) => r.status)),
    );
    statuses.push(...batch);
  }
  return statuses;
}

describe('rate limit: 1000 requests per 600 s window per client, as Reddit counts', () => {
  it('sends X-Ratelimit headers on every API response, the remaining budget as a float string', async () => {
    const token = await t.appToken();
    // START is 12:00:00, so the first window ends at 12:10:00.
    const first = await t.get('/r/SaaS/about', token);
    expect(headersOf(first)).toEqual({ used: '1', remaining: '999.0', reset: '600' });
    t.clock.advance(15_000);
    const second = await t.get('/r/unknown_sub_zzz/about', token);
    expect(second.status).toBe(404);
    expect(headersOf(second)).toEqual({ used: '2', remaining: '998.0', reset: '585' });
    expect(readRedditRateLimit(Object.fromEntries(second.headers))).toEqual({
      used: 2,
      remaining: 998,
      resetSeconds: 585,
      retryAfterSeconds: null,
    });
  });

  it('answers 429 past the budget, until the window turns', async () => {
    const token = await t.appToken();
    t.clock.advance(100_000);
    expect((await burst(1000, token)).every((s) => s === 200)).toBe(true);
    t.clock.advance(200_000);
    const refused = await t.get('/r/SaaS/about', token);
    expect(refused.status).toBe(429);
    expect(headersOf(refused)).toEqual({ used: '1000', remaining: '0.0', reset: '300' });
    expect(await refused.json()).toEqual({ message: 'Too Many Requests', error: 429 });

    // A fixed window: nothing comes back until it turns, then the whole budget does.
    t.clock.advance(299_000);
    expect((await t.get('/r/SaaS/about', token)).status).toBe(429);
    t.clock.advance(1000);
    const back = await t.get('/r/SaaS/about', token);
    expect(back.status).toBe(200);
    expect(headersOf(back)).toEqual({ used: '1', remaining: '999.0', reset: '600' });
  });

  it('counts each client id separately, and the log still tells requests per minute', async () => {
    const small = await startTestSim({ rateLimit: { requests: 10 } });
    try {
      const a = await small.appToken('client-a', 'a');
      const b = await small.appToken('client-b', 'b');
      for (let i = 0; i < 10; i++) await small.get('/r/SaaS/about', a);
      expect((await small.get('/r/SaaS/about', a)).status).toBe(429);
      expect((await small.get('/r/SaaS/about', b)).status).toBe(200);
      small.clock.advance(61_000);
      expect((await small.get('/r/SaaS/about', a)).status).toBe(429); // same 600 s window
      expect(small.sim.inspect.maxRequestsInWindow('client-a')).toBe(11);
      expect(small.sim.inspect.maxRequestsInWindow('client-a', 600_000)).toBe(12);
      const counts = small.sim.inspect.requestCountsByClient()['client-b'];
      expect(counts?.byEndpoint).toEqual({ 'POST /api/v1/access_token': 1, 'GET /r/{sub}/about': 1 });
      expect(counts?.maxInAnyMinute).toBe(1);
    } finally {
      await small.sim.close();
    }
  });

  it('can be set to another budget and window', async () => {
    const small = await startTestSim({ rateLimit: { requests: 3, windowSeconds: 60 } });
    try {
      const token = await small.appToken();
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await small.get('/r/SaaS/about', token)).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      small.clock.advance(60_000);
      const back = await small.get('/r/SaaS/about', token);
      expect(headersOf(back)).toEqual({ used: '1', remaining: '2.0', reset: '60' });
    } finally {
      await small.sim.close();
    }
  });
});

function rawGet(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('User-Agent', () => {
  it('refuses missing, empty and generic library agents with 403', async () => {
    const token = await t.appToken();
    const auth = { authorization: `bearer ${token}` };
    const missing = await rawGet(`${t.sim.url}/r/SaaS/new`, auth);
    expect(missing.status).toBe(403);
    expect(JSON.parse(missing.body)).toEqual({ message: 'Forbidden', error: 403 });
    for (const agent of ['', 'node', 'undici', 'axios/1.7.2', 'python-requests/2.31.0', 'curl/8.5.0']) {
      const res = await rawGet(`${t.sim.url}/r/SaaS/new`, { ...auth, 'user-agent': agent });
      expect(res.status, agent).toBe(403);
    }
    const token2 = await rawGet(`${t.sim.url}/api/v1/me`, { ...auth, 'user-agent': 'node' });
    expect(token2.status).toBe(403);
    const ok = await rawGet(`${t.sim.url}/r/SaaS/new`, {
      ...auth,
      'user-agent': 'web:threadreach:v1.0 (by /u/someone)',
    });
    expect(ok.status).toBe(200);
  });

  it('applies to the token endpoint too', async () => {
    const res = await t.post('/api/v1/access_token', { grant_type: 'client_credentials' }, undefined, {
      'user-agent': 'python-requests/2.31.0',
      authorization: `Basic ${Buffer.from('x:y').toString('base64')}`,
    });
    expect(res.status).toBe(403);
  });
});
