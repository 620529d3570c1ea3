import { z } from 'zod';
import type { AppContext } from '../../context';
import { defineJob } from '../../jobs/job';
import { queuePullForward } from './pull-queue-forward.job';
import { sendQueuedDm } from './send-queued';

/** Thrown by a run whose DM goes later: the runner queues the job again for `retryAtMs`. */
export class SendLaterError extends Error {
  override name = 'SendLaterError';
  constructor(readonly retryAtMs: number) {
    super(`DM send moved to ${new Date(retryAtMs).toISOString()}`);
  }
}

/**
 * One queued DM, run when it is due (startAfter = its scheduled_for). One job per DM, kept in the
 * database, so a restart loses none; one waiting and one running per DM, so a reschedule from inside
 * the run can queue its successor. A run that finds the DM due later (a wait, a full day, another
 * account) is rescheduled for then; a failed run is retried, which is safe: the claim decides.
 */
export const sendDmJob = defineJob({
  name: 'send-dm',
  schema: z.object({ projectId: z.uuid(), dmId: z.uuid() }),
  policy: 'stately',
  retry: { limit: 3, delaySeconds: 30, backoff: true },
  expireInSeconds: 300,
  async handler(ctx, data) {
    const result = await sendQueuedDm(ctx, data);
    ctx.log.debug({ job: 'send-dm', dmId: data.dmId, outcome: result.outcome }, 'paced send');
    // A failed send does not count against the account's day: a DM queued for a later one may go today.
    if (result.outcome === 'failed') await queuePullForward(ctx, data.projectId);
    if (result.retryAtMs !== null)
      throw new SendLaterError(Math.max(result.retryAtMs, ctx.clock.now() + 1000));
  },
});

/**
 * Queues the paced send of a DM for `atMs`, in place of a waiting one due later (nothing without a job
 * queue: the sweep finds it then). A DM taken back and queued again sooner (Stop Agent, then Send All)
 * would otherwise keep its first job's later time, and the overdue sweep could not queue it either.
 */
export async function queueSendDm(
  ctx: AppContext,
  dm: { projectId: string; dmId: string },
  atMs: number,
): Promise<void> {
  if (!ctx.queue) return;
  await ctx.queue.enqueue(sendDmJob, dm, {
    startAfter: new Date(atMs),
    singletonKey: dm.dmId,
    earliest: true,
  });
}
