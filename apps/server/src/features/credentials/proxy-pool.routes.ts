import type { FastifyInstance } from 'fastify';
import { credentialsEndpoints as e } from '@threadreach/contract';
import { route } from '../../http/endpoints';
import { getProxyPoolStats, listProxyDetails } from './proxy-pool.service';

export async function proxyPoolRoutes(app: FastifyInstance) {
  route(app, e.proxyPoolStats, async () => getProxyPoolStats(app.ctx));
  route(app, e.proxyPoolDetails, async (request) => listProxyDetails(app.ctx, request.query));
}
