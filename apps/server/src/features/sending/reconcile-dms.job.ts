import { z } from 'zod';
import type { AppContext } from '../../context';
import { defineJob } from '../../jobs/job';
import { reconcileAccount, sweepSends } from './reconcile.service';
import { queueSendDm, SendLaterError } from './send-dm.job';

/**
 * Without an account: the sweep, every minute. Claims left `sending` by a process that ended become
 * unknown; each account with unknown DMs gets its reconcile; queued DMs whose job is overdue get one
 * again. With an account: its unknown DMs are settled from its sent messages, and the run is
 * rescheduled for when the rest can be decided.
 */
export const reconcileDmsJob = defineJob({
  name: 'reconcile-dms',
  schema: z.union([
    z.object({ projectId: z.uuid(), accountId: z.uuid() }),
    z.object({ projectId: z.undefined().optional(), accountId: z.undefined().optional() }),
  ]),
  policy: 'stately',
  retry: { limit: 3, delaySeconds: 60, backoff: true },
  cron: '* * * * *',
  expireInSeconds: 600,
  async handler(ctx, data) {
    if (data.accountId && data.projectId) {
      const report = await reconcileAccount(ctx, { projectId: data.projectId, accountId: data.accountId });
      ctx.log.info(
        { job: 'reconcile-dms', accountId: data.accountId, ...report },
        'DMs of unknown outcome reconciled',
      );
      if (report.retryAtMs !== null) throw new SendLaterError(report.retryAtMs);
      return;
    }
    const sweep = await sweepSends(ctx);
    for (const account of sweep.accounts) await queueReconcile(ctx, account, ctx.clock.now());
    for (const dm of sweep.overdue) await queueSendDm(ctx, dm, ctx.clock.now());
    if (sweep.interrupted || sweep.accounts.length || sweep.overdue.length) {
      ctx.log.info(
        {
          job: 'reconcile-dms',
          interrupted: sweep.interrupted,
          accounts: sweep.accounts.length,
          overdue: sweep.overdue.length,
        },
        'send sweep',
      );
    }
  },
});

/** Queues the reconcile of one account's unknown DMs (one waiting per account). */
export async function queueReconcile(
  ctx: AppContext,
  target: { projectId: string; accountId: string },
  atMs: number,
): Promise<void> {
  if (!ctx.queue) return;
  await ctx.queue.enqueue(reconcileDmsJob, target, {
    startAfter: new Date(atMs),
    singletonKey: target.accountId,
  });
}
