import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZHealthResponse, ZPublicConfig } from '@threadreach/contract';

const tags = ['system'];

export const systemRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/health',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Database and job queue state',
        response: { 200: ZHealthResponse, 503: ZHealthResponse },
      },
    },
    async (_request, reply) => {
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
    },
  );

  app.get(
    '/public-config',
    {
      config: { public: true },
      schema: { tags, summary: 'What the web app needs before sign-in', response: { 200: ZPublicConfig } },
    },
    async () => ({
      demo_mode: app.ctx.config.demoMode,
      main_app_url: app.ctx.config.mainAppUrl,
      support_chat_script_url: app.ctx.config.supportChatScriptUrl,
    }),
  );
};
