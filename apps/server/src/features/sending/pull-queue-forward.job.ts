import { z } from 'zod';
import type { AppContext } from '../../context';
import { defineJob } from '../../jobs/job';
import { pullQueueForward } from './scheduling';
import { queueSendDm } from './send-dm.job';

/**
 * A project's DMs queued for a later day go sooner where its accounts now have room (`pullQueueForward`),
 * each with its send job moved up. One waiting and one running per project: a change while it runs
 * queues the next, and changes while one waits are all seen by it.
 */
export const pullQueueForwardJob = defineJob({
  name: 'pull-queue-forward',
  schema: z.object({ projectId: z.uuid() }),
  policy: 'stately',
  retry: { limit: 3, delaySeconds: 30, backoff: true },
  expireInSeconds: 300,
  async handler(ctx, data) {
    const moved = await pullQueueForward(ctx, data.projectId, Math.random);
    for (const dm of moved) await queueSendDm(ctx, { projectId: data.projectId, dmId: dm.dmId }, dm.at);
    if (moved.length > 0) {
      ctx.log.info(
        { job: 'pull-queue-forward', projectId: data.projectId, moved: moved.length },
        'queued DMs moved to an earlier day',
      );
    }
  },
});

/**
 * Asks for the project's queue to be looked at again, now: something gave its accounts room sooner.
 * Best effort: without it the DMs still go on the day they were planned for.
 */
export async function queuePullForward(ctx: AppContext, projectId: string): Promise<void> {
  if (!ctx.queue) return;
  try {
    await ctx.queue.enqueue(pullQueueForwardJob, { projectId }, { singletonKey: projectId });
  } catch (error) {
    ctx.log.warn({ err: error, projectId }, 'queue not pulled forward');
  }
}
