import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { RequestBudget } from './rate-budget';
import { useRedditRig } from './use-reddit-rig';

const env = useRedditRig();

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
});
