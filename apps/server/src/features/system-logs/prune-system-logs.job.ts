import { z } from 'zod';
import { defineJob } from '../../jobs/job';
import { pruneSystemLogs } from './system-logs.service';

/** Every hour: log lines older than SYSTEM_LOG_RETENTION_DAYS are deleted. */
export const pruneSystemLogsJob = defineJob({
  name: 'prune-system-logs',
  schema: z.object({}),
  policy: 'singleton',
  retry: { limit: 2, delaySeconds: 300, backoff: true },
  cron: '23 * * * *',
  async handler(ctx) {
    const removed = await pruneSystemLogs(ctx);
    if (removed > 0) ctx.log.info({ job: 'prune-system-logs', removed }, 'old system log lines removed');
  },
});
