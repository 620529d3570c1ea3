export { redditAccounts, redditAuthStates, type RedditAccountRow } from './accounts.table';
export {
  AccountAuthRequiredError,
  asAccount,
  markAuthExpired,
  redditApiForAccount,
  refreshTokenRef,
} from './account-client';
export {
  MIN_SENDING_AGE_DAYS,
  WARM_UP_DAYS,
  accountAgeDays,
  dailyCapacity,
  quotaWindowStart,
  usedToday,
} from './account-quota';
export { isTimeZone, startOfZonedDay, zonedInstant, zonedParts, type ZonedParts } from './zoned-time';
