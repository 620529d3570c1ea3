import { z } from 'zod';
import { defineJob } from '../../jobs/job';
import { deliverProjectWebhook, projectsDueForDelivery } from './webhooks.service';

/** Projects handed to delivery per scan; the rest wait for the next minute. */
const PROJECTS_PER_SCAN = 1000;

/** One project's new leads to its webhook; one run at a time per project. */
export const deliverLeadWebhookJob = defineJob({
  name: 'deliver-lead-webhook',
  schema: z.object({ projectId: z.uuid() }),
  policy: 'stately',
  // A failing receiver is handled by the webhook's own back-off; these retries are for database errors.
  retry: { limit: 2, delaySeconds: 30, backoff: true },
  async handler(ctx, { projectId }) {
    await deliverProjectWebhook(ctx, projectId);
  },
});

/**
 * Every minute: finds webhooks with leads waiting (discovery only stores leads; it never calls out) and
 * queues one delivery per project, so a slow receiver holds up no one else.
 */
export const scanLeadWebhooksJob = defineJob({
  name: 'scan-lead-webhooks',
  schema: z.object({}),
  policy: 'singleton',
  // The next scan comes on schedule.
  retry: { limit: 0, delaySeconds: 0, backoff: false },
  cron: '* * * * *',
  async handler(ctx) {
    const projectIds = await projectsDueForDelivery(ctx, PROJECTS_PER_SCAN);
    for (const projectId of projectIds) {
      if (ctx.queue) {
        await ctx.queue.enqueue(deliverLeadWebhookJob, { projectId }, { singletonKey: projectId });
      } else {
        await deliverProjectWebhook(ctx, projectId);
      }
    }
  },
});
