import type { FastifyInstance } from 'fastify';
import { statisticsEndpoints as e } from '@threadreach/contract';
import { route } from '../../http/endpoints';
import { requireUser } from '../auth';
import { requireProject } from '../projects';
import {
  allProjectsStatistics,
  dateRangeStatistics,
  monthlyStatistics,
  refreshAllTokens,
  resetDailyLimits,
} from './statistics.service';

export async function statisticsRoutes(app: FastifyInstance) {
  const { ctx } = app;
  route(app, e.allProjects, async (request) => allProjectsStatistics(ctx, request.query));
  route(app, e.monthly, async (request) => monthlyStatistics(ctx, requireProject(request).id, request.query));
  route(app, e.dateRange, async (request) =>
    dateRangeStatistics(ctx, requireProject(request).id, request.query),
  );
  route(app, e.resetDailyLimits, async (request) =>
    resetDailyLimits(ctx, requireUser(request), request.params.projectId),
  );
  route(app, e.refreshAllTokens, async (request) =>
    refreshAllTokens(ctx, requireUser(request), request.params.projectId),
  );
}
