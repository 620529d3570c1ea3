import { z } from 'zod';
import { defineJob } from '../../jobs/job';
import { pruneExpiredLeads } from './retention.service';

/** Daily: leads past LEAD_RETENTION_DAYS, then the profiles and Reddit items left without a lead. */
export const pruneLeadsJob = defineJob({
  name: 'prune-leads',
  schema: z.object({}),
  policy: 'singleton',
  retry: { limit: 2, delaySeconds: 300, backoff: true },
  cron: '17 3 * * *',
  async handler(ctx) {
    const pruned = await pruneExpiredLeads(ctx);
    ctx.log.info({ job: 'prune-leads', ...pruned }, 'expired leads pruned');
  },
});
