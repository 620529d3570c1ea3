import { z } from 'zod';
import type { AppContext } from '../../context';
import { defineJob } from '../../jobs/job';
import type { RunRef } from '../projects';
import { failProjectSearch, runProjectSearch } from './project-search.service';

/**
 * One project's search (search-enhanced, search-posts): one at a time per project. A spent budget
 * reschedules it for when the budget frees; any other failure ends its run as failed.
 */
export const projectSearchJob = defineJob({
  name: 'project-search',
  schema: z.object({ projectId: z.uuid() }),
  policy: 'stately',
  // A failure is reported on the run; the person starts the search again.
  retry: { limit: 0, delaySeconds: 0, backoff: false },
  expireInSeconds: 600,
  async handler(ctx, data) {
    await runProjectSearch(ctx, data.projectId);
  },
});

/** Queues the work of a search whose run was just started. */
export async function queueProjectSearch(ctx: AppContext, run: RunRef): Promise<void> {
  const { projectId } = run;
  try {
    await ctx.queue!.enqueue(projectSearchJob, { projectId }, { singletonKey: projectId });
  } catch (error) {
    await failProjectSearch(ctx, run, 'The search could not be queued; please try again');
    throw error;
  }
}
