export { dmsRoutes } from './dms.routes';
export { dmChildResource } from './dms.service';
export { generateDmsJob } from './generate-dms.job';
export { expireDmsJob } from './expire-dms.job';
export { DM_EXPIRED, expiryCutoff, tooOldToSend } from './dm-expiry';
export { draftDmsForBestLeads, type DraftReport } from './generate-all-dms';
export {
  agentMaySend,
  countWhere,
  dmOutcomeCounts,
  failedToSend,
  intentOfDms,
  leadTimesOfDms,
} from './dms.repository';
