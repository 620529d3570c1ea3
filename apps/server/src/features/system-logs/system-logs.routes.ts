import type { FastifyInstance } from 'fastify';
import { systemLogsCsvFileName, systemLogsEndpoints as e } from '@threadreach/contract';
import { sendCsv } from '../../http/csv';
import { route } from '../../http/endpoints';
import { listSystemLogs, systemLogsCsv } from './system-logs.service';

export async function systemLogsRoutes(app: FastifyInstance) {
  const { ctx } = app;
  route(app, e.list, async (request) => listSystemLogs(ctx, request.query));
  route(app, e.exportCsv, async (request, reply) =>
    sendCsv(reply, systemLogsCsvFileName(ctx.clock.now()), systemLogsCsv(ctx, request.query)),
  );
}
