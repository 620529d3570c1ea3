import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RequestBudget } from './rate-budget';
import type { RedditApi } from './reddit.api';
import {
  RedditApiError,
  RedditBudgetExhaustedError,
  RedditResponseShapeError,
  RedditUnavailableError,
} from './reddit.errors';
import { requestTotals } from './request-stats';
import { useRedditRig } from './use-reddit-rig';

const env = useRedditRig();

afterEach(() => {
  vi.restoreAllMocks();
});

/**
 * What a job runner does with a call that may not wait: run it, and when it throws an error with a
 * numeric `retryAtMs`, move time to that instant (the job's new start) and run it again.
 */
async function runAsJob<T>(call: (attempt: number) => Promise<T>) {
  const reschedules: Array<{ error: string; afterMs: number }> = [];
  for (let attempt = 1; attempt <= 20; attempt++) {
    try {
      return { value: await call(attempt), reschedules };
    } catch (error) {
      const retryAtMs = (error as { retryAtMs?: unknown }).retryAtMs;
      if (typeof retryAtMs !== 'number') throw error;
      reschedules.push({ error: (error as Error).name, afterMs: retryAtMs - env.rig.clock.t });
      env.rig.clock.t = Math.max(env.rig.clock.t, retryAtMs);
    }
  }
  throw new Error('the job was rescheduled too often');
}

describe('a call that may not wait (a job)', () => {
  it('is rescheduled for when the budget frees, and nothing sleeps', async () => {
    const budget = new RequestBudget(env.database.db, env.rig.clock, { limit: 3 });
    const client = env.rig.client({}, { budget });
    const sleep = vi.spyOn(env.rig.clock, 'sleep');
    const job = (attempt: number) =>
      client.app.withoutWaiting({ attempt }).listNew(['startups'], { limit: 1 });

    // The token grant and two reads take the budget's three slots.
    await job(1);
    await job(1);
    const start = env.rig.clock.t;
    const refused = await job(1).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RedditBudgetExhaustedError);
    expect((refused as RedditBudgetExhaustedError).retryAtMs).toBeGreaterThan(start + 60_000);
    expect(env.rig.clock.t).toBe(start);

    const { value, reschedules } = await runAsJob(job);
    expect(value.data.children).toHaveLength(1);
    expect(reschedules).toEqual([{ error: 'RedditBudgetExhaustedError', afterMs: expect.any(Number) }]);
    expect(sleep).not.toHaveBeenCalled();
  });

  it("is rescheduled for the end of Reddit's Retry-After", async () => {
    const client = env.rig.client();
    const api = (attempt: number): RedditApi => client.app.withoutWaiting({ attempt });
    await api(1).listNew(['startups'], { limit: 1 });
    const sleep = vi.spyOn(env.rig.clock, 'sleep');
    try {
      env.rig.sim.faults.add({ kind: 'rate-limit', retryAfter: 30, count: 1, clientId: client.clientId });
      const { reschedules } = await runAsJob((attempt) => api(attempt).listNew(['startups'], { limit: 1 }));
      expect(reschedules).toEqual([{ error: 'RedditBudgetExhaustedError', afterMs: 30_000 }]);
    } finally {
      env.rig.sim.faults.clear();
    }
    const log = env.rig.sim.inspect.requestLog({ clientId: client.clientId });
    const limited = log.findIndex((r) => r.status === 429);
    expect(log[limited + 1]!.at - log[limited]!.at).toBeGreaterThanOrEqual(30_000);
    expect(sleep).not.toHaveBeenCalled();
  });

  it('says a 429 is Reddit asking for a pause, not a spent budget', async () => {
    const client = env.rig.client();
    await client.app.listNew(['startups'], { limit: 1 });
    try {
      env.rig.sim.faults.add({ kind: 'rate-limit', retryAfter: 30, count: 1, clientId: client.clientId });
      const start = env.rig.clock.t;
      const held = await client.app
        .withoutWaiting({ attempt: 1 })
        .listNew(['startups'], { limit: 1 })
        .catch((error: unknown) => error);
      expect(held).toBeInstanceOf(RedditBudgetExhaustedError);
      expect(held).toMatchObject({
        retryAtMs: start + 30_000,
        source: 'reddit',
        reason: 'Reddit asked for a pause in requests',
      });
      expect((held as Error).message).not.toMatch(/budget/);
    } finally {
      env.rig.sim.faults.clear();
    }
  });

  it('is rescheduled after a failed attempt instead of backing off, and gives up after the last', async () => {
    const client = env.rig.client({}, { maxAttempts: 3 });
    await client.app.listNew(['startups'], { limit: 1 });
    const sleep = vi.spyOn(env.rig.clock, 'sleep');
    try {
      env.rig.sim.faults.add({ kind: 'status', status: 503, count: 2, clientId: client.clientId });
      const { reschedules } = await runAsJob((attempt) =>
        client.app.withoutWaiting({ attempt }).aboutSubreddit('startups'),
      );
      expect(reschedules.map((r) => r.error)).toEqual(['RedditUnavailableError', 'RedditUnavailableError']);
      expect(reschedules.every((r) => r.afterMs > 0)).toBe(true);

      env.rig.sim.faults.add({ kind: 'status', status: 503, count: 1, clientId: client.clientId });
      const last = await client.app
        .withoutWaiting({ attempt: 3 })
        .aboutSubreddit('startups')
        .catch((error: unknown) => error);
      expect(last).toBeInstanceOf(RedditUnavailableError);
      expect((last as RedditUnavailableError).retryAtMs).toBeUndefined();
    } finally {
      env.rig.sim.faults.clear();
    }
    expect(sleep).not.toHaveBeenCalled();
  });

  it('can be the default of a whole client', async () => {
    const budget = new RequestBudget(env.database.db, env.rig.clock, { limit: 1 });
    const client = env.rig.client({}, { budget, mode: { wait: false } });
    // The token grant takes the only slot; the read itself must wait a minute, so it is refused.
    await expect(client.app.listNew(['startups'], { limit: 1 })).rejects.toBeInstanceOf(
      RedditBudgetExhaustedError,
    );
  });
});

describe('connection check', () => {
  it('is one request through the budget and the statistics, not reported as traffic', async () => {
    const onTransport = vi.fn();
    const client = env.rig.client({ id: randomUUID(), onTransport });
    const result = await client.transport.probe();
    expect(result).toMatchObject({ ok: true, proxied: false, status: 401 });
    expect(onTransport).not.toHaveBeenCalled();
    const totals = (await requestTotals(env.database.db, [client.credentialId])).get(client.credentialId)!;
    expect(totals).toMatchObject({ total: 1, successes: 1 });
  });
});

describe('answers', () => {
  it("are read with their endpoint's schema: a missing field is an error, never a cast", async () => {
    const answers: Record<string, [number, unknown]> = {
      '/r/startups/new': [
        200,
        {
          kind: 'Listing',
          data: { after: null, before: null, children: [{ kind: 't3', data: { id: 'x' } }] },
        },
      ],
      '/r/startups/about': [403, { reason: 'quarantined', message: 'Forbidden', error: 403 }],
    };
    const fake = createServer((req, res) => {
      const [status, body] = answers[new URL(req.url ?? '/', 'http://x').pathname] ?? [
        404,
        { message: 'Not Found', error: 404 },
      ];
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    try {
      const apiUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
      const client = env.rig.client({}, { endpoints: { apiUrl, authUrl: env.rig.sim.url } });
      const shape = await client.app.listNew(['startups']).catch((error: unknown) => error);
      expect(shape).toBeInstanceOf(RedditResponseShapeError);
      expect((shape as Error).message).toContain('data.children.0.data.name');
      await expect(client.app.aboutSubreddit('startups')).rejects.toMatchObject({
        constructor: RedditApiError,
        status: 403,
        reason: 'quarantined',
      });
      const totals = (await requestTotals(env.database.db, [client.credentialId])).get(client.credentialId)!;
      expect(totals).toMatchObject({ successes: 1, failures: 2 }); // the token, then two unusable answers
    } finally {
      await new Promise((resolve) => fake.close(resolve));
    }
  });
});
