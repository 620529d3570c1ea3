import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { systemLogsEndpoints as e } from '@threadreach/contract';
import { route } from '../../http/endpoints';
import { listSystemLogs, systemLogsCsv, systemLogsCsvFilename } from './system-logs.service';

export async function systemLogsRoutes(app: FastifyInstance) {
  const { ctx } = app;
  route(app, e.list, async (request) => listSystemLogs(ctx, request.query));
  route(app, e.exportCsv, async (request, reply) =>
    reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${systemLogsCsvFilename(ctx)}"`)
      .header('cache-control', 'no-store')
      .send(Readable.from(systemLogsCsv(ctx, request.query))),
  );
}
