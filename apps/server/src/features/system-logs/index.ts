export { systemLogsRoutes } from './system-logs.routes';
export { pruneSystemLogsJob } from './prune-system-logs.job';
export { insertSystemLogs, systemLogBatchJson } from './system-logs.repository';
export { callToSystemLogRow, rowOf, toSystemLogRow } from './log-line';
export type { NewSystemLogRow } from './system-logs.table';
