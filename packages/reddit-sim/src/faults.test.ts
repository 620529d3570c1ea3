import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Corpus } from './corpus/corpus';
import { START, type TestSim, startTestSim } from './test-support';

let t: TestSim;
let token: string;
beforeEach(async () => {
  t = await startTestSim();
  token = await t.appToken('fault-client', 's');
});
afterEach(async () => {
  await t.sim.close();
});

describe('faults', () => {
  // How long the delay really is, is measured in bench/reddit/sim-faults.bench.ts.
  it('adds latency only to the paths it targets, and still answers', async () => {
    try {
      const id = t.sim.faults.add({ kind: 'latency', ms: 50, path: '/r/*/new' });
      const fired = () => t.sim.faults.list().find((f) => f.id === id)?.fired;
      expect((await t.get('/r/SaaS/new?limit=1', token)).status).toBe(200);
      expect(fired()).toBe(1);
      expect((await t.get('/r/SaaS/about', token)).status).toBe(200);
      expect(fired()).toBe(1);
    } finally {
      t.sim.faults.clear();
    }
  });

  it('returns 5xx a given number of times', async () => {
    try {
      t.sim.faults.add({ kind: 'status', status: 502, count: 2 });
      const a = await t.get('/r/SaaS/about', token);
      expect(a.status).toBe(502);
      expect(await a.json()).toEqual({ message: 'Bad Gateway', error: 502 });
      expect((await t.get('/r/SaaS/about', token)).status).toBe(502);
      expect((await t.get('/r/SaaS/about', token)).status).toBe(200);
    } finally {
      t.sim.faults.clear();
    }
  });

  it('returns 5xx with a probability drawn from the seed, identically across runs', async () => {
    const run = async (sim: typeof t) => {
      const tok = await sim.appToken('fault-client', 's');
      try {
        sim.sim.faults.add({ kind: 'status', status: 500, probability: 0.3 });
        const statuses: number[] = [];
        for (let i = 0; i < 40; i++) statuses.push((await sim.get('/r/SaaS/about', tok)).status);
        return statuses;
      } finally {
        sim.sim.faults.clear();
      }
    };
    const first = await run(t);
    const other = await startTestSim();
    try {
      expect(await run(other)).toEqual(first);
    } finally {
      await other.sim.close();
    }
    const failures = first.filter((s) => s === 500).length;
    expect(failures).toBeGreaterThan(3);
    expect(failures).toBeLessThan(25);
  });

  it('resets the connection after a compose took effect', async () => {
    const user = (await t.userToken({ clientId: 'fault-client', secret: 's' })).access_token;
    const to = new Corpus(42, START).users.users.find(
      (u) => !u.deleted && !u.suspended && !u.refusesDms && !u.loginable,
    )!.name;
    try {
      t.sim.faults.add({ kind: 'reset', path: '/api/compose', count: 1 });
      await expect(
        t.post('/api/compose', { api_type: 'json', to, subject: 'hi', text: 'hello there' }, user),
      ).rejects.toThrow();
      expect(t.sim.inspect.messages({ to })).toHaveLength(1);
      const sent = await t.post('/api/compose', { api_type: 'json', to, subject: 'hi', text: 'again' }, user);
      expect(sent.status).toBe(200);
      expect(t.sim.inspect.messages({ to })).toHaveLength(2);
    } finally {
      t.sim.faults.clear();
    }
  });

  it('answers 429 with Retry-After', async () => {
    try {
      t.sim.faults.add({ kind: 'rate-limit', retryAfter: 42, count: 1 });
      const res = await t.get('/r/SaaS/about', token);
      expect(res.status).toBe(429);
      expect(res.headers.get('retry-after')).toBe('42');
      expect(res.headers.get('x-ratelimit-remaining')).toBe('0.0');
      expect((await t.get('/r/SaaS/about', token)).status).toBe(200);
    } finally {
      t.sim.faults.clear();
    }
  });

  it('targets a client id and a path pattern', async () => {
    const other = await t.appToken('innocent', 'x');
    try {
      t.sim.faults.add({ kind: 'status', status: 503, clientId: 'fault-client', path: '/r/*/about' });
      expect((await t.get('/r/SaaS/about', token)).status).toBe(503);
      expect((await t.get('/r/SaaS/about.json', token)).status).toBe(503);
      expect((await t.get('/r/SaaS/new?limit=1', token)).status).toBe(200);
      expect((await t.get('/r/SaaS/about', other)).status).toBe(200);
    } finally {
      t.sim.faults.clear();
    }
    expect((await t.get('/r/SaaS/about', token)).status).toBe(200);
  });

  it('can be switched through the /__sim/faults endpoints', async () => {
    try {
      const add = await fetch(`${t.sim.url}/__sim/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ kind: 'status', status: 500, path: '/r/SaaS/about' }),
      });
      expect(add.status).toBe(201);
      const { id } = (await add.json()) as { id: string };
      expect((await t.get('/r/SaaS/about', token)).status).toBe(500);
      const listed = (await (await fetch(`${t.sim.url}/__sim/faults`)).json()) as {
        faults: Array<{ id: string }>;
      };
      expect(listed.faults.map((f) => f.id)).toEqual([id]);
      await fetch(`${t.sim.url}/__sim/faults/${id}`, { method: 'DELETE' });
      expect((await t.get('/r/SaaS/about', token)).status).toBe(200);

      const bad = await fetch(`${t.sim.url}/__sim/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ kind: 'explode' }),
      });
      expect(bad.status).toBe(400);
      await fetch(`${t.sim.url}/__sim/faults`, {
        method: 'POST',
        body: JSON.stringify({ kind: 'status', status: 500 }),
      });
      await fetch(`${t.sim.url}/__sim/faults`, { method: 'DELETE' });
      expect((await t.get('/r/SaaS/about', token)).status).toBe(200);
    } finally {
      t.sim.faults.clear();
    }
  });
});
