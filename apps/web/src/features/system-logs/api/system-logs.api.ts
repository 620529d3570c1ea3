import {
  systemLogsEndpoints,
  type TSystemLogsExportQuery,
  type TSystemLogsQuery,
  type TSystemLogsResponse,
} from '@threadreach/contract';
import { call, downloadWithProgress } from '../../../lib/api-client';

export function listSystemLogs(query: TSystemLogsQuery): Promise<TSystemLogsResponse> {
  return call(systemLogsEndpoints.list, { query });
}

/** Every line the filters match as CSV, not only the page shown; `onProgress` hears the bytes received. */
export function exportSystemLogsCsv(
  query: TSystemLogsExportQuery,
  onProgress: (bytes: number) => void,
): Promise<Blob> {
  return downloadWithProgress(systemLogsEndpoints.exportCsv, { query }, onProgress);
}
