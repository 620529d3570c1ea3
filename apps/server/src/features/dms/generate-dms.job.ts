import { z } from 'zod';
import { defineJob } from '../../jobs/job';
import { runDmGenerationBatch } from './generate-all-dms';

/**
 * "Generate All DMs": each run writes one batch of the project's plan and queues the next, so no run holds a
 * worker for long and a restart goes on where the last batch ended. One running and one waiting per project.
 */
export const generateDmsJob = defineJob({
  name: 'generate-dms',
  schema: z.object({ projectId: z.uuid() }),
  policy: 'stately',
  // A lost worker's run is taken again; the batch goes on from the last lead counted.
  retry: { limit: 2, delaySeconds: 30, backoff: true },
  async handler(ctx, data) {
    if (await runDmGenerationBatch(ctx, data.projectId)) {
      await ctx.queue?.enqueue(generateDmsJob, data, { singletonKey: data.projectId });
    }
  },
});
