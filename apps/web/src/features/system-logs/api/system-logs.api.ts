import { systemLogsEndpoints, type TSystemLogsQuery, type TSystemLogsResponse } from '@threadreach/contract';
import { call } from '../../../lib/api-client';

export function listSystemLogs(query: TSystemLogsQuery): Promise<TSystemLogsResponse> {
  return call(systemLogsEndpoints.list, { query });
}
