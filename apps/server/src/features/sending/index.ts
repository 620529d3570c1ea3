export { sendingRoutes } from './sending.routes';
export { sendDmNow, queueProjectDms, getSendingStatus } from './sending.service';
export { sendDmJob, queueSendDm } from './send-dm.job';
export { reconcileDmsJob, queueReconcile } from './reconcile-dms.job';
export { sendQueuedDm, type QueuedSendResult } from './send-queued';
export { reconcileAccount, sweepSends } from './reconcile.service';
export { SEND_STEPS, type SendStep, type OnSendStep } from './send-attempt';
export { formatInstant } from './account-readiness';
export { unqueuedChanges } from './scheduling';
