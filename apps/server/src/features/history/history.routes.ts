import type { FastifyInstance } from 'fastify';
import { historyEndpoints as e } from '@threadreach/contract';
import { route } from '../../http/endpoints';
import { requireProject } from '../projects';
import { checkProjectReplies } from '../replies';
import { campaignStatistics, listHistory } from './history.service';

export async function historyRoutes(app: FastifyInstance) {
  const { ctx } = app;
  route(app, e.list, async (request) => listHistory(ctx, requireProject(request).id, request.query));
  route(app, e.checkReplies, async (request) => checkProjectReplies(ctx, requireProject(request).id));
  route(app, e.campaignStatistics, async (request) => campaignStatistics(ctx, requireProject(request).id));
}
