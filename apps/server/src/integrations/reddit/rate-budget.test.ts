import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { RequestBudget } from './rate-budget';
import { RedditBudgetExhaustedError } from './reddit.errors';
import { useRedditRig } from './use-reddit-rig';

// Reddit's published figure, 100 a minute, counted in windows of 60 s instead of its real 1000 per
// 600 s: so that a few hundred requests show what the budget prevents. The client's budget is 100 in
// any rolling minute, which stays inside either.
const env = useRedditRig({ rateLimit: { requests: 100, windowSeconds: 60 } });

/** `callers` concurrent loops of `each` reads, spread over `processes` client instances of one credential. */
async function hammer(options: { callers: number; each: number; processes: number; budgetLimit?: number }) {
  const credential = {
    id: randomUUID(),
    clientId: `budget-${randomUUID().slice(0, 8)}`,
    clientSecret: 'sekret',
  };
  // Each "process" has its own client and budget object: only the database is shared.
  const clients = Array.from({ length: options.processes }, () =>
    env.rig.client(credential, {
      budget: new RequestBudget(
        env.database.db,
        env.rig.clock,
        options.budgetLimit ? { limit: options.budgetLimit } : {},
      ),
      maxAttempts: 1,
    }),
  );
  const results = await Promise.allSettled(
    Array.from({ length: options.callers }, async (_, i) => {
      const client = clients[i % clients.length]!;
      for (let n = 0; n < options.each; n++) await client.app.listNew(['startups'], { limit: 1 });
    }),
  );
  const log = env.rig.sim.inspect
    .requestLog({ clientId: credential.clientId })
    .filter((r) => !r.endpoint.includes('access_token'));
  return { results, log, maxInMinute: env.rig.sim.inspect.maxRequestsInWindow(credential.clientId, 60_000) };
}

describe('shared request budget', () => {
  it('keeps twenty concurrent callers in two processes within 100 requests in any minute', async () => {
    const { results, log, maxInMinute } = await hammer({ callers: 20, each: 8, processes: 2 });
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    expect(log).toHaveLength(160);
    expect(log.filter((r) => r.status === 429)).toHaveLength(0);
    expect(maxInMinute).toBeLessThanOrEqual(100);
    expect(maxInMinute).toBeGreaterThanOrEqual(90); // and it does use the budget it has
  });

  it('is what holds them back: with a budget above the limit Reddit answers 429', async () => {
    const { log } = await hammer({ callers: 20, each: 8, processes: 2, budgetLimit: 1000 });
    expect(log.filter((r) => r.status === 429).length).toBeGreaterThan(0);
  });

  it('blocks a client until the instant Reddit named', async () => {
    const budget = new RequestBudget(env.database.db, env.rig.clock);
    const key = `block-${randomUUID()}`;
    const start = env.rig.clock.now();
    await budget.blockUntil(key, start + 12_345);
    await budget.blockUntil(key, start + 1_000); // an earlier instant never shortens the block
    await budget.acquire(key);
    expect(env.rig.clock.now()).toBeGreaterThanOrEqual(start + 12_345);
  });

  it('takes a slot or says at once when one frees, without waiting', async () => {
    const budget = new RequestBudget(env.database.db, env.rig.clock, { limit: 3 });
    const key = `now-${randomUUID()}`;
    const start = env.rig.clock.now();
    for (let i = 0; i < 3; i++) await budget.settle(await budget.acquireNow(key));
    const refused = await budget.acquireNow(key).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RedditBudgetExhaustedError);
    // The oldest slot leaves the window (60 s and the 0.5 s clock margin) a millisecond later.
    expect((refused as RedditBudgetExhaustedError).retryAtMs).toBe(start + 60_501);
    expect(refused).toMatchObject({
      source: 'budget',
      reason: "Reddit's request budget is spent",
      message: `Reddit request budget spent until ${new Date(start + 60_501).toISOString()}`,
    });
    expect(env.rig.clock.now()).toBe(start); // nothing slept

    env.rig.clock.t = (refused as RedditBudgetExhaustedError).retryAtMs;
    await expect(budget.acquireNow(key)).resolves.toBeTypeOf('number');
  });

  it('names the end of a block as the instant to retry at, and Reddit as the one who asked', async () => {
    const budget = new RequestBudget(env.database.db, env.rig.clock);
    const key = `blocked-${randomUUID()}`;
    const start = env.rig.clock.now();
    await budget.blockUntil(key, start + 12_345);
    // Reddit's own hold-back (a 429, X-Ratelimit-Remaining at 0), not a spent budget: said so.
    await expect(budget.acquireNow(key)).rejects.toMatchObject({
      retryAtMs: start + 12_345,
      source: 'reddit',
      reason: 'Reddit asked for a pause in requests',
      message: `Reddit asked for a pause in requests until ${new Date(start + 12_345).toISOString()}`,
    });
    expect(env.rig.clock.now()).toBe(start);
  });
});

describe('racing takers of one client', () => {
  // Under DATABASE_URL they race on a pool of 10 connections: the client's row lock is what keeps 100.
  it('take exactly its 100 slots among 200 from two processes at once', async () => {
    const key = `race-${randomUUID()}`;
    const [a, b] = [0, 1].map(() => new RequestBudget(env.database.db, env.rig.clock));
    // The client's row exists, as it does after its first request.
    await a!.settle(await a!.acquireNow(key));
    const results = await Promise.allSettled(
      Array.from({ length: 200 }, (_, i) => (i % 2 ? a! : b!).acquireNow(key)),
    );
    const taken = 1 + results.filter((r) => r.status === 'fulfilled').length;
    expect(taken).toBe(100);
    for (const r of results)
      if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(RedditBudgetExhaustedError);
  });
});
