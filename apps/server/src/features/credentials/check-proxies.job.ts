import { z } from 'zod';
import { defineJob } from '../../jobs/job';
import { checkAllProxies } from './credentials.service';

/**
 * Every 5 minutes: credentials without a proxy get one while PROXY_URL_TEMPLATE is set, then one round
 * trip through each credential's proxy; repeated failures replace it.
 */
export const checkProxiesJob = defineJob({
  name: 'check-proxies',
  schema: z.object({}),
  policy: 'singleton',
  // The next round comes on schedule.
  retry: { limit: 0, delaySeconds: 0, backoff: false },
  cron: '*/5 * * * *',
  async handler(ctx) {
    const result = await checkAllProxies(ctx);
    if (result.checked > 0) ctx.log.info({ job: 'check-proxies', ...result }, 'proxy health checked');
  },
});
