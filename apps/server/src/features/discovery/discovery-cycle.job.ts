import { z } from 'zod';
import type { AppContext } from '../../context';
import { defineJob } from '../../jobs/job';
import { runDiscoveryCycle } from './discovery-cycle.service';

const ZStreamRef = z.object({ groupNo: z.number().int().min(0), kind: z.enum(['t3', 't1']) });

class DiscoveryBudgetSpentError extends Error {
  override name = 'DiscoveryBudgetSpentError';
  constructor(readonly retryAtMs: number) {
    // The report keeps only the instant: the budget's own or a pause Reddit asked for.
    super(`Reddit requests held back until ${new Date(retryAtMs).toISOString()}`);
  }
}

/**
 * The shared discovery cycle, one at a time across every process. Each run queues the next for
 * DISCOVERY_INTERVAL_SECONDS after its own start (on ctx.clock); a spent budget queues it instead for the
 * instant the budget frees. Streams Reddit did not answer are read again by a run (`retry`) queued for the
 * client's backoff instant instead, up to its last attempt; that run queues the next cycle for an
 * interval after the first run's start (`startedAtMs`). The per-minute schedule only re-arms the chain
 * after it broke (a crash); a queued successor keeps it from adding runs.
 */
export const discoveryCycleJob = defineJob({
  name: 'discovery-cycle',
  schema: z.object({
    retry: z
      .object({
        streams: z.array(ZStreamRef),
        attempt: z.number().int().min(2),
        startedAtMs: z.number().int(),
      })
      .optional(),
  }),
  policy: 'stately',
  // The next cycle comes anyway.
  retry: { limit: 0, delaySeconds: 0, backoff: false },
  // A worker killed mid-cycle frees the chain after this; the per-minute cron then re-arms it.
  expireInSeconds: 300,
  cron: '* * * * *',
  async handler(ctx, data) {
    const { retry } = data;
    const startedAt = retry?.startedAtMs ?? ctx.clock.now();
    let report;
    try {
      report = await runDiscoveryCycle(
        ctx,
        retry ? { retry: { streams: retry.streams, attempt: retry.attempt } } : {},
      );
    } catch (error) {
      await queueNextCycle(ctx, startedAt);
      throw error;
    }
    const missed = report.unanswered.streams.length + report.unanswered.backfills.length;
    if (report.requests > 0 || report.leadsCreated > 0 || missed > 0) {
      ctx.log.info({ job: 'discovery-cycle', ...report }, 'discovery cycle done');
    }
    // The job runner queues this job again for that instant.
    if (report.retryAtMs !== null) throw new DiscoveryBudgetSpentError(report.retryAtMs);
    if (report.againAtMs !== null) {
      // In place of the next cycle (one waits at a time): the retry queues that one when it is done.
      const attempt = (retry?.attempt ?? 1) + 1;
      await ctx.queue?.enqueue(
        discoveryCycleJob,
        { retry: { streams: report.unanswered.streams, attempt, startedAtMs: startedAt } },
        { startAfter: new Date(report.againAtMs) },
      );
      return;
    }
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
