import { z } from 'zod';
import { defineJob } from '../../jobs/job';
import { applyEndedSubscriptions } from './billing.service';

/** Every 5 minutes: users whose canceled subscription's paid period has ended drop to their hand-set limit. */
export const expireSubscriptionsJob = defineJob({
  name: 'expire-subscriptions',
  schema: z.object({}),
  policy: 'singleton',
  retry: { limit: 3, delaySeconds: 30, backoff: true },
  cron: '*/5 * * * *',
  async handler(ctx) {
    const users = await applyEndedSubscriptions(ctx);
    if (users) ctx.log.info({ job: 'expire-subscriptions', users }, 'ended subscriptions applied');
  },
});
