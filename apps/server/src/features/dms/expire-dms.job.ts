import { z } from 'zod';
import { defineJob } from '../../jobs/job';
import { expireStaleDms } from './dm-expiry';

/** Daily: unsent DMs about leads older than DM_EXPIRY_DAYS become expired. */
export const expireDmsJob = defineJob({
  name: 'expire-dms',
  schema: z.object({}),
  policy: 'singleton',
  retry: { limit: 2, delaySeconds: 300, backoff: true },
  cron: '37 3 * * *',
  async handler(ctx) {
    const expired = await expireStaleDms(ctx);
    ctx.log.info({ job: 'expire-dms', expired }, 'stale DMs expired');
  },
});
