import { z } from 'zod';
import { defineJob } from '../../jobs/job';
import { checkAccountGrants } from './accounts.service';

class AccountChecksBudgetSpentError extends Error {
  override name = 'AccountChecksBudgetSpentError';
  constructor(readonly retryAtMs: number) {
    // The report keeps only the instant: the budget's own or a pause Reddit asked for.
    super(`Reddit requests held back until ${new Date(retryAtMs).toISOString()}`);
  }
}

/**
 * Every 30 minutes: checks the grants of connected accounts not checked for 6 hours (one cheap
 * `/api/v1/me` each) and refreshes their age and karma; a refused grant becomes Auth Required. A spent
 * budget queues the rest for the instant it frees.
 */
export const checkAccountAuthJob = defineJob({
  name: 'check-account-auth',
  schema: z.object({}),
  policy: 'stately',
  // The next round comes on schedule.
  retry: { limit: 0, delaySeconds: 0, backoff: false },
  cron: '*/30 * * * *',
  async handler(ctx) {
    const { retryAtMs, ...report } = await checkAccountGrants(ctx);
    if (report.checked + report.expired + report.failed > 0) {
      ctx.log.info({ job: 'check-account-auth', ...report }, 'Reddit account grants checked');
    }
    // The job runner queues this job again for that instant.
    if (retryAtMs !== null) throw new AccountChecksBudgetSpentError(retryAtMs);
  },
});
