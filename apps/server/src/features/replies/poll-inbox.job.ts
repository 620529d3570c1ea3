import { z } from 'zod';
import { defineJob } from '../../jobs/job';
import { pollInbox, REPLY_WATCH_DAYS } from './poll-inbox.service';
import { accountsToPoll } from './replies.repository';

const DAY_MS = 86_400_000;

/**
 * Reads one connected account's inbox for answers to its DMs. One per account at a time (its id is
 * the singleton key); a spent Reddit budget reschedules it for when the budget frees.
 */
export const pollInboxJob = defineJob({
  name: 'poll-inbox',
  schema: z.object({ accountId: z.uuid() }),
  policy: 'stately',
  // The next scheduled poll comes within minutes anyway.
  retry: { limit: 1, delaySeconds: 60, backoff: false },
  expireInSeconds: 300,
  async handler(ctx, { accountId }) {
    const report = await pollInbox(ctx, accountId);
    if (report.replies > 0 || report.stopped > 0) {
      ctx.log.info({ job: 'poll-inbox', ...report }, 'replies recorded');
    }
  },
});

/**
 * Every 5 minutes: a poll for each connected account that can sign in and sent a DM in the last
 * REPLY_WATCH_DAYS days. A poll already queued for an account keeps its place.
 */
export const scheduleInboxPollsJob = defineJob({
  name: 'schedule-inbox-polls',
  schema: z.object({}),
  policy: 'stately',
  retry: { limit: 0, delaySeconds: 0, backoff: false },
  cron: '*/5 * * * *',
  async handler(ctx) {
    const since = new Date(ctx.clock.now() - REPLY_WATCH_DAYS * DAY_MS);
    for (const accountId of await accountsToPoll(ctx.db, since)) {
      await ctx.queue?.enqueue(pollInboxJob, { accountId }, { singletonKey: accountId });
    }
  },
});
