import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  RANK_MODERATOR,
  ZListProxyDetailsQuery,
  ZProxyDetailList,
  ZProxyPoolStats,
} from '@threadreach/contract';
import { getProxyPoolStats, listProxyDetails } from './proxy-pool.service';

const tags = ['proxy-pool'];
const config = { minRank: RANK_MODERATOR };

export const proxyPoolRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/proxy-pool/stats',
    {
      config,
      schema: { tags, summary: 'Health and traffic of every proxy', response: { 200: ZProxyPoolStats } },
    },
    async () => getProxyPoolStats(app.ctx),
  );

  app.get(
    '/proxy-pool/details',
    {
      config,
      schema: {
        tags,
        summary: "Each credential's proxy (password masked) with its health",
        querystring: ZListProxyDetailsQuery,
        response: { 200: ZProxyDetailList },
      },
    },
    async (request) => listProxyDetails(app.ctx, request.query),
  );
};
