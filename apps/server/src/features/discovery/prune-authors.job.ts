import { z } from 'zod';
import { defineJob } from '../../jobs/job';
import { pruneAuthorCache } from './prune-authors';

/** Daily, after prune-leads: cached profiles no lead names any more, and stale unanswered notes. */
export const pruneAuthorsJob = defineJob({
  name: 'prune-reddit-authors',
  schema: z.object({}),
  policy: 'singleton',
  retry: { limit: 2, delaySeconds: 300, backoff: true },
  cron: '47 3 * * *',
  async handler(ctx) {
    const pruned = await pruneAuthorCache(ctx);
    ctx.log.info({ job: 'prune-reddit-authors', ...pruned }, 'unused Reddit author profiles pruned');
  },
});
