import {
  ACCOUNT_DELAY_ORDER_ERROR,
  type TAccountAuthStatusList,
  type TAccountList,
  type TAccountSettings,
  type TPageQuery,
  type TUpdateAccountSettingsRequest,
} from '@threadreach/contract';
import type { AppContext } from '../../context';
import { badRequest, notFound } from '../../http/errors';
import { RedditBudgetExhaustedError } from '../../integrations/reddit';
import type { AuthUser } from '../auth';
import { redditClientFor } from '../credentials';
import type { ChildResource, ProjectWithOwner } from '../projects';
import { accountCapacity, type AccountCapacity } from './account-capacity';
import { AccountAuthRequiredError, asAccount, refreshTokenRef } from './account-client';
import { connectLimitFor, suspensionReason } from './account-auth.service';
import { MIN_SENDING_AGE_DAYS, zoneChangeFloor } from './account-quota';
import {
  accountOwners,
  accountsDueForAuthCheck,
  deleteProjectAccount,
  findProjectAccount,
  listProjectAccounts,
  listSendingAccounts,
  queuedSendsByAccount,
  recordAccountCheck,
  updateProjectAccount,
} from './accounts.repository';
import { presentAccount, presentAuthStatus, presentSettings } from './accounts.presenter';
import type { RedditAccountRow } from './accounts.table';

const DAY_MS = 86_400_000;
export const ACCOUNT_NOT_FOUND = 'Reddit account not found';
/** Removing an account waits at most this long for Reddit to confirm the grant is given up. */
export const REVOKE_TIMEOUT_MS = 5_000;
/** A grant is checked at Reddit at most this often. */
export const AUTH_CHECK_INTERVAL_MS = 6 * 3_600_000;
/** Accounts checked per run of the job; the rest wait for the next run. */
export const AUTH_CHECKS_PER_RUN = 100;

/** Connected accounts that `child` scopes name by id. */
export const accountChildResources: readonly ChildResource[] = [
  { name: 'account', notFoundDetail: ACCOUNT_NOT_FOUND, ownersOf: accountOwners },
];

/** The account (of the project the scope checked), or 404. */
export async function requireAccount(
  ctx: AppContext,
  projectId: string,
  accountId: string,
): Promise<RedditAccountRow> {
  const row = await findProjectAccount(ctx.db, projectId, accountId);
  if (!row) throw notFound(ACCOUNT_NOT_FOUND);
  return row;
}

async function withCapacity(ctx: AppContext, rows: RedditAccountRow[], nowMs: number) {
  const out: Array<{ row: RedditAccountRow; capacity: AccountCapacity }> = [];
  for (const row of rows) out.push({ row, capacity: await accountCapacity(ctx.db, row, nowMs) });
  return out;
}

export async function listAccountsPage(
  ctx: AppContext,
  caller: AuthUser,
  project: ProjectWithOwner,
  page: TPageQuery,
): Promise<TAccountList> {
  const now = ctx.clock.now();
  const { rows, total } = await listProjectAccounts(ctx.db, project.id, page);
  const limit = await connectLimitFor(ctx.db, caller, project);
  const queued = await queuedSendsByAccount(
    ctx.db,
    project.id,
    rows.map((row) => row.id),
  );
  return {
    items: (await withCapacity(ctx, rows, now)).map(({ row, capacity }) =>
      presentAccount(row, capacity, now, queued.get(row.id) ?? 0),
    ),
    total,
    limit: page.limit,
    offset: page.offset,
    connect_limit: { used: limit.used, limit: limit.limit, blocked_reason: limit.blockedReason },
  };
}

export async function listAuthStatusPage(
  ctx: AppContext,
  projectId: string,
  page: TPageQuery,
): Promise<TAccountAuthStatusList> {
  const now = ctx.clock.now();
  const { rows, total } = await listProjectAccounts(ctx.db, projectId, page);
  return {
    accounts: (await withCapacity(ctx, rows, now)).map(({ row, capacity }) =>
      presentAuthStatus(row, capacity),
    ),
    total,
    limit: page.limit,
    offset: page.offset,
  };
}

/**
 * Disconnects an account, then gives up its grant at Reddit: best effort within REVOKE_TIMEOUT_MS, so
 * a slow or failing Reddit never keeps an account connected.
 */
export async function removeAccount(ctx: AppContext, projectId: string, accountId: string): Promise<void> {
  const row = await deleteProjectAccount(ctx.db, projectId, accountId, new Date(ctx.clock.now()));
  if (!row) throw notFound(ACCOUNT_NOT_FOUND);
  ctx.log.info({ accountId, projectId }, 'Reddit account removed');
  await revokeRemovedAccount(ctx, row);
}

/**
 * Gives up the grant of an account already deleted here (removed, or gone with its project) at Reddit:
 * best effort within REVOKE_TIMEOUT_MS; a failure is logged, never thrown.
 */
export async function revokeRemovedAccount(
  ctx: AppContext,
  row: Pick<RedditAccountRow, 'id' | 'credentialId' | 'refreshTokenCiphertext'>,
): Promise<void> {
  if (!row.credentialId || !row.refreshTokenCiphertext) return;
  try {
    const refreshToken = ctx.secrets.decrypt(row.refreshTokenCiphertext, refreshTokenRef(row.id));
    const client = await redditClientFor(ctx, row.credentialId);
    const revoked = await client.revokeAccount(
      { id: row.id, refreshToken },
      { timeoutMs: REVOKE_TIMEOUT_MS },
    );
    if (!revoked) ctx.log.warn({ accountId: row.id }, 'Reddit did not confirm revoking a removed account');
  } catch (error) {
    ctx.log.warn({ err: error, accountId: row.id }, 'could not revoke a removed account at Reddit');
  }
}

export async function getAccountSettings(
  ctx: AppContext,
  projectId: string,
  accountId: string,
): Promise<TAccountSettings> {
  return presentSettings(await requireAccount(ctx, projectId, accountId));
}

/** Changes the settings given; the delays must stay in order with the ones kept. */
export async function updateAccountSettings(
  ctx: AppContext,
  projectId: string,
  accountId: string,
  input: TUpdateAccountSettingsRequest,
): Promise<TAccountSettings> {
  const current = await requireAccount(ctx, projectId, accountId);
  const min = input.delay_range_min ?? current.delayRangeMin;
  const max = input.delay_range_max ?? current.delayRangeMax;
  if (min > max) throw badRequest(ACCOUNT_DELAY_ORDER_ERROR, 'invalid_settings');
  const row = await updateProjectAccount(ctx.db, projectId, accountId, {
    delayRangeMin: min,
    delayRangeMax: max,
    ...(input.working_days ? { workingDays: [...input.working_days].sort((a, b) => a - b) } : {}),
    ...(input.working_hours_start !== undefined ? { workingHoursStart: input.working_hours_start } : {}),
    ...(input.working_hours_end !== undefined ? { workingHoursEnd: input.working_hours_end } : {}),
    ...(input.timezone ? { timezone: input.timezone } : {}),
    ...(input.timezone && input.timezone !== current.timezone
      ? zoneChangeFloor(current, ctx.clock.now())
      : {}),
    updatedAt: new Date(ctx.clock.now()),
  });
  if (!row) throw notFound(ACCOUNT_NOT_FOUND);
  return presentSettings(row);
}

/**
 * The project's accounts that may send: a valid grant, active, not disabled by Reddit, at least 7 days
 * old. Their capacity today (quota, pacing, working hours) is `accountCapacity`'s to tell.
 */
export async function listReadyAccounts(ctx: AppContext, projectId: string): Promise<RedditAccountRow[]> {
  const bornBefore = new Date(ctx.clock.now() - MIN_SENDING_AGE_DAYS * DAY_MS);
  return listSendingAccounts(ctx.db, projectId, bornBefore);
}

export interface AuthCheckReport {
  checked: number;
  expired: number;
  failed: number;
  /** Set when the budget ran out before every due account was checked: when to go on. */
  retryAtMs: number | null;
}

/**
 * Checks the grants not checked for AUTH_CHECK_INTERVAL_MS with one `/api/v1/me` each (refreshing the
 * access token on the way), and keeps what Reddit says of the account: age, karma, suspension. A
 * refused grant turns the account to Auth Required. Nothing waits: a spent budget ends the run with
 * the instant to go on.
 */
export async function checkAccountGrants(ctx: AppContext): Promise<AuthCheckReport> {
  const started = ctx.clock.now();
  const due = await accountsDueForAuthCheck(
    ctx.db,
    new Date(started - AUTH_CHECK_INTERVAL_MS),
    AUTH_CHECKS_PER_RUN,
  );
  const report: AuthCheckReport = { checked: 0, expired: 0, failed: 0, retryAtMs: null };
  for (const account of due) {
    try {
      const me = await asAccount(ctx, account, (api) => api.me(), { wait: false });
      const now = new Date(ctx.clock.now());
      await recordAccountCheck(ctx.db, account, {
        accountCreatedAt: new Date(me.created_utc * 1000),
        commentKarma: Math.round(me.comment_karma),
        linkKarma: Math.round(me.link_karma),
        disabledReason: suspensionReason(me.is_suspended, account.disabledReason),
        authCheckedAt: now,
        updatedAt: now,
      });
      report.checked++;
    } catch (error) {
      if (error instanceof AccountAuthRequiredError) {
        report.expired++;
        continue;
      }
      if (error instanceof RedditBudgetExhaustedError) {
        report.retryAtMs = error.retryAtMs;
        break;
      }
      // Tried: the next check comes after the interval, so one broken account cannot hold up the rest.
      report.failed++;
      ctx.log.warn({ err: error, accountId: account.id }, 'Reddit account check failed');
      await recordAccountCheck(ctx.db, account, { authCheckedAt: new Date(ctx.clock.now()) });
    }
  }
  return report;
}
