import {
  systemLogsEndpoints,
  type TSystemLogsExportQuery,
  type TSystemLogsQuery,
  type TSystemLogsResponse,
} from '@threadreach/contract';
import { call, download } from '../../../lib/api-client';

export function listSystemLogs(query: TSystemLogsQuery): Promise<TSystemLogsResponse> {
  return call(systemLogsEndpoints.list, { query });
}

/** Every line the filters match as CSV, not only the page shown. */
export function exportSystemLogsCsv(query: TSystemLogsExportQuery): Promise<Blob> {
  return download(systemLogsEndpoints.exportCsv, { query });
}
