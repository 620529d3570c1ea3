import {
  DAY_COLUMN_VALUES,
  PROJECT_COLUMN_VALUES,
  plural,
  STATS_TOP_SUBREDDITS,
  applyStatsFilters,
  columnValues,
  dayNumber,
  dayString,
  groupByDay,
  parseStatsFilter,
  type TDailyStatisticsResponse,
  type TDailyStatisticsSummary,
  type TDateRangeStatisticsResponse,
  type TDayProjectStatistics,
  type TMonthlyStatisticsResponse,
  type TProjectStatistics,
  type TRefreshAllTokensResponse,
  type TResetDailyLimitsResponse,
  type TStatisticsPoint,
  type ZDailyStatisticsQuery,
  type ZDateRangeQuery,
  type ZMonthlyStatisticsQuery,
} from '@threadreach/contract';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import { AppError } from '../../http/errors';
import type { AuthUser } from '../auth';
import { asAccount, AccountAuthRequiredError, type RedditAccountRow } from '../accounts';
import { redditClientFor } from '../credentials';
import { getAccessibleProject } from '../projects';
import { queuePullForward } from '../sending';
import {
  METRICS,
  countAnswered,
  countByAccount,
  countByDay,
  countBySubreddit,
  listProjectAccounts,
  markAuthChecked,
  projectFacts,
  resetQuotas,
  type Metric,
  type MetricCount,
  type TimeRange,
} from './statistics.repository';

const DAY_MS = 86_400_000;

type Counts = Record<Metric, number>;

interface DayRange extends TimeRange {
  startDay: number;
  endDay: number;
}

/** From the start of the first UTC day to the end of the last. The contract has checked both dates. */
function dayRange(startDate: string, endDate: string): DayRange {
  const startDay = dayNumber(startDate)!;
  const endDay = dayNumber(endDate)!;
  return { startDay, endDay, from: new Date(startDay * DAY_MS), to: new Date((endDay + 1) * DAY_MS) };
}

function noCounts(): Counts {
  return Object.fromEntries(METRICS.map((m) => [m, 0])) as Counts;
}

function add(into: Counts, row: MetricCount) {
  into[row.metric] += Number(row.n);
}

/** Totals per key of the rows, e.g. per project or per day. */
function totalsBy(rows: MetricCount[], key: (row: MetricCount) => string): Map<string, Counts> {
  const totals = new Map<string, Counts>();
  for (const row of rows) {
    const k = key(row);
    let counts = totals.get(k);
    if (!counts) totals.set(k, (counts = noCounts()));
    add(counts, row);
  }
  return totals;
}

function total(rows: MetricCount[]): Counts {
  const counts = noCounts();
  for (const row of rows) add(counts, row);
  return counts;
}

/** A share in percent with one decimal, or null when there is nothing to take a share of. */
function percent(part: number, whole: number): number | null {
  return whole > 0 ? Math.round((part / whole) * 1000) / 10 : null;
}

function point(date: string, counts: Counts | undefined): TStatisticsPoint {
  const c = counts ?? noCounts();
  return { date, dms_sent: c.sent, replies: c.replies, leads: c.posts + c.comments };
}

/** One point per day of the range, days with nothing included. */
function dailySeries(rows: MetricCount[], range: DayRange): TStatisticsPoint[] {
  const byDay = totalsBy(rows, (r) => r.day);
  const points: TStatisticsPoint[] = [];
  for (let day = range.startDay; day <= range.endDay; day++) {
    const date = dayString(day);
    points.push(point(date, byDay.get(date)));
  }
  return points;
}

// ---- all projects ----------------------------------------------------------------------------------------

type TDailyQuery = z.output<typeof ZDailyStatisticsQuery>;

/**
 * Every project's figures over the range, for moderators and admins. A project is in them when anything of
 * it was counted in the range (a search, a lead found, a DM generated, sent, failed or expired, a reply), so
 * both groupings list and count the same projects and a range before a project existed leaves it out. By
 * project: a row per project, busiest first. By day: a row per day and project with activity, newest day
 * first.
 */
export async function allProjectsStatistics(
  ctx: AppContext,
  query: TDailyQuery,
): Promise<TDailyStatisticsResponse> {
  const range = dayRange(query.start_date, query.end_date);
  const filters = parseStatsFilter(query.filter);
  const rows = await countByDay(ctx.db, range);
  const all = total(rows);
  const byProject = totalsBy(rows, (r) => r.projectId);
  const projectIds = [...byProject.keys()];
  const facts = await projectFacts(ctx.db, projectIds);
  const common = {
    start_date: query.start_date,
    end_date: query.end_date,
    series: dailySeries(rows, range),
    summary: {
      total_projects: facts.length,
      total_accounts: facts.reduce((sum, p) => sum + p.accounts, 0),
      total_posts_found: all.posts,
      total_dms_generated: all.generated,
      sent: all.sent,
      failed: all.failed,
      expired: all.expired,
      total_replies: all.replies,
    } satisfies TDailyStatisticsSummary,
  };

  if (query.group_by === 'day') {
    const factsOf = new Map(facts.map((p) => [p.id, p]));
    const data: TDayProjectStatistics[] = [];
    for (const [key, c] of totalsBy(rows, (r) => `${r.day}|${r.projectId}`)) {
      const [date, projectId] = key.split('|') as [string, string];
      const project = factsOf.get(projectId);
      if (!project) continue;
      data.push({
        date,
        project_id: project.id,
        project_name: project.name,
        posts_searched: c.posts,
        messages_generated: c.generated,
        sent: c.sent,
        failed: c.failed,
        expired: c.expired,
      });
    }
    data.sort((a, b) => b.date.localeCompare(a.date) || a.project_name.localeCompare(b.project_name));
    const days = groupByDay(data);
    const shownDays = applyStatsFilters(days, DAY_COLUMN_VALUES, filters);
    return {
      ...common,
      group_by: 'day',
      ...pageOf(shownDays, query),
      filter_values: columnValues(days, DAY_COLUMN_VALUES),
      data: shownDays.slice(query.offset, query.offset + query.limit).flatMap((day) => day.projects),
    };
  }

  const [subreddits, accounts] = await Promise.all([
    countBySubreddit(ctx.db, projectIds, range),
    countByAccount(ctx.db, projectIds, range),
  ]);
  const subredditsOf = groupBy(subreddits, (s) => s.projectId);
  const accountsOf = groupBy(accounts, (a) => a.projectId);
  const data: TProjectStatistics[] = facts.map((project) => {
    const c = byProject.get(project.id) ?? noCounts();
    const top = (subredditsOf.get(project.id) ?? [])
      .sort((a, b) => b.posts - a.posts || b.dmsSent - a.dmsSent || a.subreddit.localeCompare(b.subreddit))
      .slice(0, STATS_TOP_SUBREDDITS);
    return {
      project_id: project.id,
      project_name: project.name,
      accounts_connected: project.accounts,
      approved_keywords: project.approvedKeywords,
      approved_subreddits: project.approvedSubreddits,
      total_posts_searched: c.posts,
      total_messages_generated: c.generated,
      sent: c.sent,
      failed: c.failed,
      expired: c.expired,
      top_subreddits: top.map((s) => ({ subreddit: s.subreddit, posts: s.posts, dms_sent: s.dmsSent })),
      accounts: (accountsOf.get(project.id) ?? []).map((a) => ({
        account_id: a.accountId,
        username: a.username,
        dms_sent: a.sent,
        dms_failed: a.failed,
      })),
    };
  });
  data.sort(
    (a, b) =>
      b.sent - a.sent ||
      b.total_posts_searched - a.total_posts_searched ||
      a.project_name.localeCompare(b.project_name),
  );
  const shownProjects = applyStatsFilters(data, PROJECT_COLUMN_VALUES, filters);
  return {
    ...common,
    group_by: 'project',
    ...pageOf(shownProjects, query),
    filter_values: columnValues(data, PROJECT_COLUMN_VALUES),
    data: shownProjects.slice(query.offset, query.offset + query.limit),
  };
}

function groupBy<T>(rows: readonly T[], key: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const k = key(row);
    const group = groups.get(k);
    if (group) group.push(row);
    else groups.set(k, [row]);
  }
  return groups;
}

function pageOf(rows: readonly unknown[], query: TDailyQuery) {
  return { total: rows.length, limit: query.limit, offset: query.offset };
}

// ---- one project -----------------------------------------------------------------------------------------

type TMonthlyQuery = z.output<typeof ZMonthlyStatisticsQuery>;
type TRangeQuery = z.output<typeof ZDateRangeQuery>;

/** A month of a year, or the whole year without a month. */
export async function monthlyStatistics(
  ctx: AppContext,
  projectId: string,
  query: TMonthlyQuery,
): Promise<TMonthlyStatisticsResponse> {
  const { year, month } = query;
  const first = Date.UTC(year, (month ?? 1) - 1, 1) / DAY_MS;
  const last = (month ? Date.UTC(year, month, 1) : Date.UTC(year + 1, 0, 1)) / DAY_MS - 1;
  const range = dayRange(dayString(first), dayString(last));
  const [rows, answered] = await Promise.all([
    countByDay(ctx.db, range, projectId),
    countAnswered(ctx.db, projectId, range),
  ]);
  const c = total(rows);
  let series = dailySeries(rows, range);
  if (!month) {
    // A year reads better by month: each point starts on the first of its month.
    const byMonth = totalsBy(rows, (r) => `${r.day.slice(0, 7)}-01`);
    series = Array.from({ length: 12 }, (_, i) => {
      const date = `${year}-${String(i + 1).padStart(2, '0')}-01`;
      return point(date, byMonth.get(date));
    });
  }
  return {
    year,
    month: month ?? null,
    start_date: dayString(first),
    end_date: dayString(last),
    summary: {
      total_messages_sent: c.sent,
      total_messages_generated: c.generated,
      total_posts_found: c.posts,
      total_comments_found: c.comments,
      total_searches_performed: c.searches,
      total_messages_failed: c.failed,
      total_replies: answered.answered,
      reply_rate: percent(answered.answered, answered.sent),
    },
    granularity: month ? 'day' : 'month',
    series,
  };
}

/** Any range of days, with its day count, messages sent per day, success rate and reply rate. */
export async function dateRangeStatistics(
  ctx: AppContext,
  projectId: string,
  query: TRangeQuery,
): Promise<TDateRangeStatisticsResponse> {
  const range = dayRange(query.start_date, query.end_date);
  const [rows, answered] = await Promise.all([
    countByDay(ctx.db, range, projectId),
    countAnswered(ctx.db, projectId, range),
  ]);
  const c = total(rows);
  const days = range.endDay - range.startDay + 1;
  return {
    start_date: query.start_date,
    end_date: query.end_date,
    date_range_days: days,
    statistics: {
      messages_sent: c.sent,
      messages_generated: c.generated,
      posts_found: c.posts,
      comments_found: c.comments,
      searches_performed: c.searches,
      average_messages_per_day: Math.round((c.sent / days) * 100) / 100,
      success_rate: percent(c.sent, c.sent + c.failed),
      messages_failed: c.failed,
      replies: answered.answered,
      reply_rate: percent(answered.answered, answered.sent),
    },
    series: dailySeries(rows, range),
  };
}

// ---- admin actions ---------------------------------------------------------------------------------------

const accountsText = (n: number) => plural(n, 'account');

/** Sends claimed before now stop counting toward each account's quota for today. */
export async function resetDailyLimits(
  ctx: AppContext,
  caller: AuthUser,
  projectId: string,
): Promise<TResetDailyLimitsResponse> {
  await getAccessibleProject(ctx.db, caller, projectId, 'read');
  const reset = await resetQuotas(ctx.db, projectId, new Date(ctx.clock.now()));
  ctx.log.info({ projectId, accounts: reset, by: caller.id }, 'daily limits reset');
  if (reset > 0) await queuePullForward(ctx, projectId);
  return { message: `Daily limits reset for ${accountsText(reset)}.`, accounts_reset: reset };
}

/** Why a renewal failed, in words an admin can act on. */
function refreshError(error: unknown): string {
  if (error instanceof AccountAuthRequiredError) {
    return 'Reddit refused the sign-in: the account needs to be re-authenticated.';
  }
  if (error instanceof Error && 'retryAtMs' in error) {
    return 'Reddit is busy or rate limited right now; try again in a few minutes.';
  }
  if (error instanceof AppError) return error.detail;
  return 'Reddit could not be reached.';
}

/** A new access token from the account's refresh token, checked with a call as the account. */
async function renewToken(ctx: AppContext, account: RedditAccountRow): Promise<void> {
  if (account.credentialId && account.refreshTokenCiphertext && account.authStatus === 'valid') {
    const client = await redditClientFor(ctx, account.credentialId);
    await client.forgetAccountToken(account.id);
  }
  // A person waits for the answer: no call waits for the budget or a retry.
  await asAccount(ctx, account, (api) => api.me(), { wait: false });
}

/**
 * Renews every account's access token, one after the other; an account whose grant Reddit refuses is
 * marked Auth Required (by asAccount) and counted as failed, as is any other failure.
 */
export async function refreshAllTokens(
  ctx: AppContext,
  caller: AuthUser,
  projectId: string,
): Promise<TRefreshAllTokensResponse> {
  await getAccessibleProject(ctx.db, caller, projectId, 'read');
  const results: TRefreshAllTokensResponse['accounts'] = [];
  for (const account of await listProjectAccounts(ctx.db, projectId)) {
    try {
      await renewToken(ctx, account);
      await markAuthChecked(ctx.db, account.id, new Date(ctx.clock.now()));
      results.push({
        account_id: account.id,
        reddit_username: account.redditUsername,
        refreshed: true,
        error: null,
      });
    } catch (error) {
      ctx.log.warn({ err: error, accountId: account.id }, 'account token refresh failed');
      results.push({
        account_id: account.id,
        reddit_username: account.redditUsername,
        refreshed: false,
        error: refreshError(error),
      });
    }
  }
  const refreshed = results.filter((r) => r.refreshed).length;
  const failed = results.length - refreshed;
  const message =
    results.length === 0
      ? 'This project has no connected accounts.'
      : `Tokens refreshed for ${accountsText(refreshed)}${failed ? `; ${accountsText(failed)} failed` : ''}.`;
  return { refreshed_accounts: refreshed, failed_accounts: failed, message, accounts: results };
}
