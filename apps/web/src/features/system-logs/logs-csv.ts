import type { TLogEntry } from '@threadreach/contract';

export const CSV_COLUMNS = ['Timestamp', 'Level', 'Logger', 'Message'] as const;

/**
 * One CSV cell, always quoted. A cell that a spreadsheet would run as a formula (starting with =, +, -, @,
 * or a tab or carriage return before one) gets a leading apostrophe.
 */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${safe.replace(/"/g, '""')}"`;
}

export function logsCsv(logs: readonly TLogEntry[]): string {
  const rows = [
    CSV_COLUMNS.map(csvCell),
    ...logs.map((l) => [l.timestamp, l.level, l.logger_name, l.message].map(csvCell)),
  ];
  return `${rows.map((r) => r.join(',')).join('\r\n')}\r\n`;
}

/** system-logs-2030-01-31T09-30-00.csv: 'system-logs' plus the export's timestamp (UTC). */
export function csvFileName(now: Date): string {
  return `system-logs-${now.toISOString().slice(0, 19).replace(/:/g, '-')}.csv`;
}

/** Hands the file to the browser as a download. */
export function downloadCsv(fileName: string, csv: string): void {
  const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
