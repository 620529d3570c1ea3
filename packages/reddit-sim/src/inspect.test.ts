import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Corpus } from './corpus/corpus';
import { START, type TestSim, startTestSim } from './test-support';

let t: TestSim;
beforeEach(async () => {
  t = await startTestSim();
});
afterEach(async () => {
  await t.sim.close();
});

const sim = async <T>(path: string, init?: RequestInit): Promise<T> => {
  const res = await fetch(`${t.sim.url}${path}`, init);
  expect(res.status, path).toBeLessThan(300);
  return (await res.json()) as T;
};

describe('/__sim inspection endpoints', () => {
  it('lists composes per recipient', async () => {
    const user = (await t.userToken()).access_token;
    const to = new Corpus(42, START).users.users.find(
      (u) => !u.deleted && !u.suspended && !u.refusesDms,
    )!.name;
    await t.post('/api/compose', { api_type: 'json', to, subject: 'hello', text: 'hi there' }, user);
    const body = await sim<{
      messages: Array<{ to: string; body: string }>;
      byRecipient: Record<string, unknown[]>;
    }>(`/__sim/messages?to=${to}`);
    expect(body.messages).toEqual([expect.objectContaining({ to, body: 'hi there', from: 'demo_founder' })]);
    expect(Object.keys(body.byRecipient)).toEqual([to]);
  });

  it('makes a recipient answer now, instead of the answer planned for later', async () => {
    const user = (await t.userToken()).access_token;
    const to = new Corpus(42, START).users.users.find(
      (u) => !u.deleted && !u.suspended && !u.refusesDms && !u.loginable,
    )!.name;
    await t.post('/api/compose', { api_type: 'json', to, subject: 'hello', text: 'hi there' }, user);
    const res = await fetch(`${t.sim.url}/__sim/replies`, {
      method: 'POST',
      body: JSON.stringify({ from: to, to: 'demo_founder', kind: 'stop', body: 'please stop' }),
    });
    expect(res.status).toBe(201);
    const { replies } = await sim<{ replies: unknown[] }>('/__sim/replies');
    expect(replies).toEqual([expect.objectContaining({ from: to, to: 'demo_founder', body: 'please stop' })]);
    // The planned answer is gone: a day later there is still only the one.
    t.clock.advance(86_400_000);
    expect((await sim<{ replies: unknown[] }>('/__sim/replies')).replies).toHaveLength(1);
    const inbox = await t.get('/message/inbox', (await t.userToken()).access_token);
    const names = (
      (await inbox.json()) as { data: { children: Array<{ data: { author: string } }> } }
    ).data.children.map((c) => c.data.author);
    expect(names).toEqual([to]);

    const nobody = await fetch(`${t.sim.url}/__sim/replies`, {
      method: 'POST',
      body: JSON.stringify({ from: 'demo_founder', to }),
    });
    expect(nobody.status).toBe(404);
    const bad = await fetch(`${t.sim.url}/__sim/replies`, { method: 'POST', body: '{"from":"x"}' });
    expect(bad.status).toBe(400);
  });

  it('logs requests with timestamps per client and endpoint, and resets counters', async () => {
    const token = await t.appToken('inspected', 'x');
    await t.get('/r/SaaS/new', token);
    t.clock.advance(1000);
    await t.get('/r/SaaS/about', token);
    const { requests } = await sim<{ requests: Array<{ at: number; endpoint: string; status: number }> }>(
      '/__sim/requests?clientId=inspected',
    );
    expect(requests.map((r) => [r.endpoint, r.status, r.at - START])).toEqual([
      ['POST /api/v1/access_token', 200, 0],
      ['GET /r/{sub}/new', 200, 0],
      ['GET /r/{sub}/about', 200, 1000],
    ]);
    const { counts } = await sim<{ counts: Record<string, { total: number; maxInAnyMinute: number }> }>(
      '/__sim/requests/counts',
    );
    expect(counts.inspected).toMatchObject({ total: 3, maxInAnyMinute: 2 });
    expect(t.sim.inspect.requestLog({ clientId: 'inspected' })).toHaveLength(3);

    await sim('/__sim/reset', { method: 'POST', body: '{}' });
    expect(t.sim.inspect.requestLog()).toHaveLength(0);
    const res = await t.get('/r/SaaS/about', token);
    expect(res.headers.get('x-ratelimit-used')).toBe('1');
  });

  it('lists accounts, clients and the corpus; registers clients', async () => {
    const { accounts } = await sim<{ accounts: Array<{ name: string }> }>('/__sim/accounts');
    expect(accounts.map((a) => a.name)).toEqual(expect.arrayContaining(['demo_founder', 'fresh_account']));
    await sim('/__sim/clients', {
      method: 'POST',
      body: JSON.stringify({ clientId: 'via-http', clientSecret: 'sec', type: 'script' }),
    });
    const { clients } = await sim<{ clients: Array<{ clientId: string }> }>('/__sim/clients');
    expect(clients.map((c) => c.clientId)).toContain('via-http');
    const founder = await sim<{ user: { name: string; refusesDms: boolean } }>('/__sim/users/Demo_Founder');
    expect(founder.user).toEqual({
      name: 'demo_founder',
      deleted: false,
      suspended: false,
      refusesDms: false,
      loginable: true,
    });
    expect((await fetch(`${t.sim.url}/__sim/users/nobody_at_all_here`)).status).toBe(404);
    const corpus = await sim<{ subreddits: unknown[]; topics: string[] }>('/__sim/corpus');
    expect(corpus.subreddits.length).toBeGreaterThanOrEqual(150);
    expect(corpus.topics.length).toBeGreaterThanOrEqual(15);
  });

  it('adds a login account of a given age, listed with the others (the consent page offers them)', async () => {
    const added = await fetch(`${t.sim.url}/__sim/accounts`, {
      method: 'POST',
      body: JSON.stringify({ name: 'own_founder_1', age_days: 30 }),
    });
    expect(added.status).toBe(201);
    expect(await added.json()).toMatchObject({ name: 'own_founder_1' });
    const { accounts } = await sim<{ accounts: Array<{ name: string; created_utc: number }> }>(
      '/__sim/accounts',
    );
    const own = accounts.find((a) => a.name === 'own_founder_1');
    expect(own!.created_utc * 1000).toBe(START - 30 * 86_400_000);
    // Adding it again returns it; a corpus user's name or a malformed one is refused.
    const again = await fetch(`${t.sim.url}/__sim/accounts`, {
      method: 'POST',
      body: JSON.stringify({ name: 'own_founder_1' }),
    });
    expect(again.status).toBe(201);
    const token = await t.appToken('adding', 'x');
    const listing = (await (await t.get('/r/SaaS/new', token)).json()) as {
      data: { children: Array<{ data: { author: string } }> };
    };
    const taken = await fetch(`${t.sim.url}/__sim/accounts`, {
      method: 'POST',
      body: JSON.stringify({ name: listing.data.children[0]!.data.author }),
    });
    expect(taken.status).toBe(409);
    const bad = await fetch(`${t.sim.url}/__sim/accounts`, { method: 'POST', body: '{"name":"a b"}' });
    expect(bad.status).toBe(400);
  });
});
