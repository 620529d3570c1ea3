import { z } from 'zod';
import type { AppContext } from '../../context';
import { defineJob } from '../../jobs/job';
import type { RunRef } from '../projects';
import { failProjectSearch, runProjectSearch } from './project-search.service';

/**
 * One project's search (search-enhanced, search-posts): one at a time per project. A spent budget
 * reschedules it for when the budget frees; Reddit not answering queues its next attempt (`attempt`,
 * 1 for the first; jobs queued without it are first attempts) for the retry's backoff instant, up to
 * the Reddit client's last attempt; any other failure ends its run as failed.
 */
export const projectSearchJob = defineJob({
  name: 'project-search',
  schema: z.object({ projectId: z.uuid(), attempt: z.number().int().min(1).optional() }),
  policy: 'stately',
  // A failure is reported on the run; the person starts the search again.
  retry: { limit: 0, delaySeconds: 0, backoff: false },
  expireInSeconds: 600,
  async handler(ctx, data) {
    const attempt = data.attempt ?? 1;
    const outcome = await runProjectSearch(ctx, data.projectId, { attempt });
    // Queued here, not by throwing `retryAtMs`: the runner would queue the same data, not the next attempt.
    if (outcome.kind === 'again') {
      await queueProjectSearch(ctx, outcome.run, {
        attempt: attempt + 1,
        startAfter: new Date(outcome.retryAtMs),
      });
    }
  },
});

/** Queues the work of a search whose run was just started, or (with `next`) its next attempt. */
export async function queueProjectSearch(
  ctx: AppContext,
  run: RunRef,
  next?: { attempt: number; startAfter: Date },
): Promise<void> {
  const { projectId } = run;
  try {
    await ctx.queue!.enqueue(
      projectSearchJob,
      next ? { projectId, attempt: next.attempt } : { projectId },
      next ? { singletonKey: projectId, startAfter: next.startAfter } : { singletonKey: projectId },
    );
  } catch (error) {
    await failProjectSearch(ctx, run, 'The search could not be queued; please try again');
    throw error;
  }
}
