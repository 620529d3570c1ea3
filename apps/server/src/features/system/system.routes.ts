import type { FastifyInstance } from 'fastify';
import { systemEndpoints as e } from '@threadreach/contract';
import { route } from '../../http/endpoints';
import { redditWebUrl } from '../../integrations/reddit';

export async function systemRoutes(app: FastifyInstance) {
  route(app, e.health, async (_request, reply) => {
    const { database, queue, config } = app.ctx;
    const [dbOk, queueOk] = await Promise.all([
      database.ping(),
      queue ? queue.isHealthy() : Promise.resolve(!config.jobsEnabled),
    ]);
    const ok = dbOk && queueOk;
    return reply.status(ok ? 200 : 503).send({
      status: ok ? 'ok' : 'degraded',
      database: { ok: dbOk, driver: database.driver },
      queue: { ok: queueOk },
    });
  });

  route(app, e.publicConfig, async () => ({
    demo_mode: app.ctx.config.demoMode,
    main_app_url: app.ctx.config.mainAppUrl,
    support_chat_script_url: app.ctx.config.supportChatScriptUrl,
    reddit_web_url: redditWebUrl(app.ctx.reddit.endpoints),
    dm_expiry_days: app.ctx.config.dms.expiryDays,
  }));
}
