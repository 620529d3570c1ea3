import { endpoint, scope } from './endpoint';
import { ZSystemLogsExportQuery, ZSystemLogsQuery, ZSystemLogsResponse } from './system-logs.schema';

/** Log lines carry other customers' details: moderators and admins only. */
export const systemLogsEndpoints = {
  list: endpoint({
    method: 'GET',
    path: '/api/v1/system/logs',
    summary:
      'Log lines newest first, filtered by level, logger, period (default the last hour) or a custom range, and free text',
    tags: ['system'],
    scope: scope.moderator('read'),
    query: ZSystemLogsQuery,
    responses: { 200: ZSystemLogsResponse },
  }),
  exportCsv: endpoint({
    method: 'GET',
    path: '/api/v1/system/logs.csv',
    summary:
      'Every log line the filters match, newest first, as CSV (Timestamp, Level, Logger, Message), not only one page',
    tags: ['system'],
    scope: scope.moderator('read'),
    query: ZSystemLogsExportQuery,
    responses: { 200: null },
  }),
};
