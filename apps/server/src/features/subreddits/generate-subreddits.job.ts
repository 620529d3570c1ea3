import { z } from 'zod';
import { defineJob } from '../../jobs/job';
import { generateSuggestedSubreddits } from './subreddit-generation';

/**
 * Step 3's "Generate" and "Generate More": one job per project at a time (the project's run decides
 * whether one may start). A failure is written to the run for the customer to read and start again, so
 * pg-boss does not retry; a spent Reddit budget reschedules it.
 */
export const generateSubredditsJob = defineJob({
  name: 'generate-subreddits',
  schema: z.object({ projectId: z.uuid() }),
  // One running and one waiting per project: a reschedule can queue its successor while it runs.
  policy: 'stately',
  retry: { limit: 0, delaySeconds: 0, backoff: false },
  async handler(ctx, data) {
    await generateSuggestedSubreddits(ctx, data.projectId);
  },
});
