/** system-logs-2030-01-31T09-30-00.csv: 'system-logs' plus the export's timestamp (UTC). */
export function csvFileName(now: Date): string {
  return `system-logs-${now.toISOString().slice(0, 19).replace(/:/g, '-')}.csv`;
}
