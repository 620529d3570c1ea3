import { z } from 'zod';
import { defineJob } from '../../jobs/job';
import { deleteExpiredAuthRecords } from './auth.repository';

/** Every 15 minutes: expired refresh tokens, SSO states and v3 records are deleted. */
export const cleanupAuthTokensJob = defineJob({
  name: 'cleanup-auth-tokens',
  schema: z.object({}),
  policy: 'singleton',
  retry: { limit: 2, delaySeconds: 60, backoff: true },
  cron: '*/15 * * * *',
  async handler(ctx) {
    const removed = await deleteExpiredAuthRecords(ctx.db, new Date(ctx.clock.now()));
    ctx.log.info({ job: 'cleanup-auth-tokens', ...removed }, 'expired auth records removed');
  },
});
