import { z } from 'zod';
import { defineJob } from '../../jobs/job';
import { deleteExpiredAuthRecords } from './auth.repository';

/** Every 15 minutes: expired refresh tokens, SSO states and v3 records are deleted. */
export const cleanupAuthTokensJob = defineJob({
  name: 'cleanup-auth-tokens',
  schema: z.object({}),
  cron: '*/15 * * * *',
  async handler(ctx) {
    const removed = await deleteExpiredAuthRecords(ctx.db);
    ctx.log.info({ job: 'cleanup-auth-tokens', ...removed }, 'expired auth records removed');
  },
});
