import type { FastifyInstance } from 'fastify';
import { systemLogsEndpoints as e } from '@threadreach/contract';
import { route } from '../../http/endpoints';
import { listSystemLogs } from './system-logs.service';

export async function systemLogsRoutes(app: FastifyInstance) {
  const { ctx } = app;
  route(app, e.list, async (request) => listSystemLogs(ctx, request.query));
}
