export { redditAccounts, redditAuthStates, type RedditAccountRow } from './accounts.table';
export { accountsRoutes } from './accounts.routes';
export {
  accountChildResources,
  listReadyAccounts,
  requireAccount,
  revokeRemovedAccount,
} from './accounts.service';
export {
  ACCOUNT_REMOVED,
  countOwnerAccounts,
  dmSenderName,
  removedBeforeConfirmed,
} from './accounts.repository';
export { checkAccountAuthJob } from './check-account-auth.job';
export {
  AccountAuthRequiredError,
  asAccount,
  markAuthExpired,
  redditApiForAccount,
  refreshTokenRef,
} from './account-client';
export {
  LATER_DAY_REASON,
  PACING_REASON,
  accountCapacity,
  capacityAt,
  type AccountCapacity,
  type CapacityAccount,
} from './account-capacity';
export {
  MIN_SENDING_AGE_DAYS,
  WARM_UP_DAYS,
  accountAgeDays,
  dailyCapacity,
  quotaWindowStart,
  claimedBySameRedditAccount,
  keptOfSameRedditAccount,
  ofSameRedditAccount,
  usedToday,
} from './account-quota';
export { isWithinWorkingHours, nextWorkingInstant, type WorkingWindow } from './working-hours';
export { isTimeZone, startOfZonedDay, zonedInstant, zonedParts, type ZonedParts } from './zoned-time';
