import { z } from 'zod';
import type { AppContext } from '../../context';
import { defineJob } from '../../jobs/job';
import { runDiscoveryCycle } from './discovery-cycle.service';

class DiscoveryBudgetSpentError extends Error {
  override name = 'DiscoveryBudgetSpentError';
  constructor(readonly retryAtMs: number) {
    super(`Reddit request budget spent until ${new Date(retryAtMs).toISOString()}`);
  }
}

/**
 * The shared discovery cycle, one at a time across every process. Each run queues the next for
 * DISCOVERY_INTERVAL_SECONDS after its own start (on ctx.clock); a spent budget queues it instead for the
 * instant the budget frees. The per-minute schedule only re-arms the chain after it broke (a crash); a
 * queued successor keeps it from adding runs.
 */
export const discoveryCycleJob = defineJob({
  name: 'discovery-cycle',
  schema: z.object({}),
  policy: 'stately',
  // The next cycle comes anyway.
  retry: { limit: 0, delaySeconds: 0, backoff: false },
  cron: '* * * * *',
  async handler(ctx) {
    const startedAt = ctx.clock.now();
    let report;
    try {
      report = await runDiscoveryCycle(ctx);
    } catch (error) {
      await queueNextCycle(ctx, startedAt);
      throw error;
    }
    if (report.requests > 0 || report.leadsCreated > 0) {
      ctx.log.info({ job: 'discovery-cycle', ...report }, 'discovery cycle done');
    }
    // The job runner queues this job again for that instant.
    if (report.retryAtMs !== null) throw new DiscoveryBudgetSpentError(report.retryAtMs);
    await queueNextCycle(ctx, startedAt);
  },
});

async function queueNextCycle(ctx: AppContext, startedAt: number): Promise<void> {
  const next = Math.max(ctx.clock.now(), startedAt + ctx.config.discovery.intervalSeconds * 1000);
  await ctx.queue?.enqueue(discoveryCycleJob, {}, { startAfter: new Date(next) });
}

/** Runs a cycle soon (e.g. after subreddits were approved), unless one is already waiting. */
export async function requestDiscoveryCycle(ctx: AppContext): Promise<void> {
  await ctx.queue?.enqueue(discoveryCycleJob, {});
}
