import { and, count, eq, gte, inArray, isNotNull, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { CONTACTED_DM_STATES, dmClaimsKept, dmMessages } from '../dms/dms.table';
import { redditAccounts, type RedditAccountRow } from './accounts.table';
import { startOfNextZonedDay, startOfZonedDay } from './zoned-time';

const DAY_MS = 86_400_000;
/** Reddit accounts younger than this cannot send (spec sections 5 and 9). */
export const MIN_SENDING_AGE_DAYS = 7;
/** Until this age an account's daily cap rises step by step to its full limit. */
export const WARM_UP_DAYS = 30;

/** Whole days since the Reddit account was created, or null when Reddit did not say. */
export function accountAgeDays(
  account: Pick<RedditAccountRow, 'accountCreatedAt'>,
  nowMs: number,
): number | null {
  if (!account.accountCreatedAt) return null;
  return Math.max(0, Math.floor((nowMs - account.accountCreatedAt.getTime()) / DAY_MS));
}

/**
 * Today's cap: 0 below the minimum age; from there a warm-up rising linearly from a fifth of the limit
 * (at least 1) at 7 days to the full limit at 30 days, so a young account never sends like an old one.
 */
export function dailyCapacity(
  account: Pick<RedditAccountRow, 'accountCreatedAt' | 'dailyMessageLimit'>,
  nowMs: number,
): number {
  const limit = Math.max(0, account.dailyMessageLimit);
  const age = accountAgeDays(account, nowMs);
  if (age === null || age < MIN_SENDING_AGE_DAYS) return 0;
  if (age >= WARM_UP_DAYS) return limit;
  const floor = Math.max(1, Math.ceil(limit / 5));
  const share = (age - MIN_SENDING_AGE_DAYS) / (WARM_UP_DAYS - MIN_SENDING_AGE_DAYS);
  return Math.min(limit, Math.max(floor, Math.floor(floor + (limit - floor) * share)));
}

type QuotaWindowAccount = Pick<
  RedditAccountRow,
  'timezone' | 'quotaResetAt' | 'quotaFloorAt' | 'quotaFloorUntil'
>;

/**
 * Where today's count starts: local midnight in the account's zone, or earlier while the day of a zone it
 * left lasts (`quotaFloorAt`), or a later admin reset.
 */
export function quotaWindowStart(account: QuotaWindowAccount, nowMs: number): Date {
  let start = startOfZonedDay(nowMs, account.timezone);
  if (account.quotaFloorAt && account.quotaFloorUntil && account.quotaFloorUntil.getTime() > nowMs) {
    start = Math.min(start, account.quotaFloorAt.getTime());
  }
  const reset = account.quotaResetAt?.getTime() ?? 0;
  return new Date(Math.max(start, reset));
}

/**
 * Where today's count starts for a Reddit account connected to several projects of the workspace, each
 * connection with its own zone: the earliest of their day starts, so no connection's local day holds more
 * than its cap (a day that began in Tokyo still counts when Los Angeles's begins), or the latest admin
 * reset of any of them, as the day is the Reddit account's.
 */
export function sharedWindowStart(connections: readonly QuotaWindowAccount[], nowMs: number): Date {
  let start = Infinity;
  let reset = 0;
  for (const connection of connections) {
    start = Math.min(start, quotaWindowStart({ ...connection, quotaResetAt: null }, nowMs).getTime());
    reset = Math.max(reset, connection.quotaResetAt?.getTime() ?? 0);
  }
  return new Date(Math.max(start, reset));
}

/** The day fields of every connection of the same Reddit account in the owner's workspace. */
async function windowsOfSameRedditAccount(
  db: DbOrTx,
  account: Pick<RedditAccountRow, 'ownerUserId' | 'redditUsername'>,
): Promise<QuotaWindowAccount[]> {
  return db
    .select({
      timezone: redditAccounts.timezone,
      quotaResetAt: redditAccounts.quotaResetAt,
      quotaFloorAt: redditAccounts.quotaFloorAt,
      quotaFloorUntil: redditAccounts.quotaFloorUntil,
    })
    .from(redditAccounts)
    .where(
      and(
        eq(redditAccounts.ownerUserId, account.ownerUserId),
        sql`lower(${redditAccounts.redditUsername}) = lower(${account.redditUsername})`,
      ),
    );
}

/**
 * What a change of the account's zone keeps of the day it is in: that day's start, until it ends (or a
 * floor still running, if it ends later). Sending 10 at 07:55 UTC in Tokyo, then moving to Los Angeles,
 * whose day began at 08:00 UTC, would otherwise count none of them.
 */
export function zoneChangeFloor(
  account: QuotaWindowAccount,
  nowMs: number,
): Pick<RedditAccountRow, 'quotaFloorAt' | 'quotaFloorUntil'> {
  const from = quotaWindowStart({ ...account, quotaResetAt: null }, nowMs).getTime();
  const running = account.quotaFloorUntil?.getTime() ?? 0;
  const until = Math.max(running > nowMs ? running : 0, startOfNextZonedDay(nowMs, account.timezone));
  return { quotaFloorAt: new Date(from), quotaFloorUntil: new Date(until) };
}

/**
 * DMs of any connection of the same Reddit account in the owner's workspace, this project's or another's:
 * Reddit's limits are the account's, so connecting it to a second project gives it no second quota and no
 * second pace. (The owner's accounts are few: their index finds them.)
 */
export function ofSameRedditAccount(account: Pick<RedditAccountRow, 'ownerUserId' | 'redditUsername'>): SQL {
  return sql`${dmMessages.accountId} in (select ${redditAccounts.id} from ${redditAccounts}
    where ${redditAccounts.ownerUserId} = ${account.ownerUserId}
      and lower(${redditAccounts.redditUsername}) = lower(${account.redditUsername}))`;
}

/**
 * DMs claimed by the same Reddit account in the owner's workspace, through any connection, present or
 * removed: removing an account and connecting it again must not give it a fresh day or pace.
 */
export function claimedBySameRedditAccount(
  account: Pick<RedditAccountRow, 'ownerUserId' | 'redditUsername'>,
): SQL {
  return and(
    eq(dmMessages.ownerUserId, account.ownerUserId),
    eq(dmMessages.senderKey, account.redditUsername.toLowerCase()),
    isNotNull(dmMessages.claimedAt),
  )!;
}

/**
 * Sends claimed today that count against the quota: those being sent, sent, or of unknown outcome.
 * Counted from the DMs themselves, so the figure cannot drift from what happened; every connection of the
 * Reddit account in the workspace counts, removed ones too, and so do the kept claims of deleted projects.
 * Today starts where the connections' days say (`sharedWindowStart`).
 */
export async function usedToday(
  db: DbOrTx,
  account: Pick<RedditAccountRow, 'ownerUserId' | 'redditUsername'> & QuotaWindowAccount,
  nowMs: number,
): Promise<number> {
  // The account as given (it may be newer than its row) and its other connections.
  const since = sharedWindowStart([account, ...(await windowsOfSameRedditAccount(db, account))], nowMs);
  const [[row], [kept]] = await Promise.all([
    db
      .select({ n: count() })
      .from(dmMessages)
      .where(
        and(
          claimedBySameRedditAccount(account),
          gte(dmMessages.claimedAt, since),
          inArray(dmMessages.state, [...CONTACTED_DM_STATES]),
        ),
      ),
    db
      .select({ n: count() })
      .from(dmClaimsKept)
      .where(and(keptOfSameRedditAccount(account), gte(dmClaimsKept.claimedAt, since))),
  ]);
  return (row?.n ?? 0) + (kept?.n ?? 0);
}

/** Claims kept from the same Reddit account's DMs in deleted projects of the workspace (dmClaimsKept). */
export function keptOfSameRedditAccount(
  account: Pick<RedditAccountRow, 'ownerUserId' | 'redditUsername'>,
): SQL {
  return and(
    eq(dmClaimsKept.ownerUserId, account.ownerUserId),
    eq(dmClaimsKept.senderKey, account.redditUsername.toLowerCase()),
  )!;
}
