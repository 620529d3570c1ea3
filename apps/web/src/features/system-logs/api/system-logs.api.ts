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

/** Every line the filters match as CSV, not only the page shown; `onProgress` hears the bytes received. */
export async function exportSystemLogsCsv(
  query: TSystemLogsExportQuery,
  onProgress: (bytes: number) => void,
): Promise<Blob> {
  const file = await download(systemLogsEndpoints.exportCsv, { query }, onProgress);
  return file.content;
}
