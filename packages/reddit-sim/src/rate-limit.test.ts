import { request } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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

describe('rate limit: 100 requests per rolling 60 s per client', () => {
  it('sends X-Ratelimit headers on every API response', async () => {
    const token = await t.appToken();
    const first = await t.get('/r/SaaS/about', token);
    expect(headersOf(first)).toEqual({ used: '1', remaining: '99', reset: '60' });
    t.clock.advance(15_000);
    const second = await t.get('/r/unknown_sub_zzz/about', token);
    expect(second.status).toBe(404);
    expect(headersOf(second)).toEqual({ used: '2', remaining: '98', reset: '45' });
  });

  it('answers 429 past the budget, then recovers as the window rolls', async () => {
    const token = await t.appToken();
    for (let i = 0; i < 50; i++) expect((await t.get('/r/SaaS/about', token)).status).toBe(200);
    t.clock.advance(30_000);
    for (let i = 0; i < 50; i++) expect((await t.get('/r/SaaS/about', token)).status).toBe(200);
    const refused = await t.get('/r/SaaS/about', token);
    expect(refused.status).toBe(429);
    expect(headersOf(refused)).toEqual({ used: '100', remaining: '0', reset: '30' });
    expect(await refused.json()).toEqual({ message: 'Too Many Requests', error: 429 });

    // The first 50 leave the window 60 s after they were made: 50 slots come back, not 100.
    t.clock.advance(30_000);
    const back = await t.get('/r/SaaS/about', token);
    expect(back.status).toBe(200);
    expect(headersOf(back)).toEqual({ used: '51', remaining: '49', reset: '30' });

    t.clock.advance(60_000);
    expect(headersOf(await t.get('/r/SaaS/about', token))).toEqual({
      used: '1',
      remaining: '99',
      reset: '60',
    });
  });

  it('counts each client id separately', async () => {
    const a = await t.appToken('client-a', 'a');
    const b = await t.appToken('client-b', 'b');
    for (let i = 0; i < 100; i++) await t.get('/r/SaaS/about', a);
    expect((await t.get('/r/SaaS/about', a)).status).toBe(429);
    expect((await t.get('/r/SaaS/about', b)).status).toBe(200);
    expect(t.sim.inspect.maxRequestsInWindow('client-a')).toBe(101);
    const counts = t.sim.inspect.requestCountsByClient()['client-b'];
    expect(counts?.byEndpoint).toEqual({ 'POST /api/v1/access_token': 1, 'GET /r/{sub}/about': 1 });
    expect(counts?.maxInAnyMinute).toBe(1);
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
