import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  TDailyStatisticsResponse,
  TDateRangeStatisticsResponse,
  TMonthlyStatisticsResponse,
  TRefreshAllTokensResponse,
} from '@threadreach/contract';
import { virtualClock } from '../../integrations/reddit/reddit-test-support';
import { recordingQueue } from '../../jobs/queue.test-support';
import { buildProject, buildUser, type TestUser } from '../../test/factories';
import type { TestApp } from '../../test/test-app';
import { redditAccessTokens } from '../../integrations/reddit/reddit.table';
import { asAccount, redditAccounts, usedToday } from '../accounts';
import { createDiscoveryApp } from '../discovery/discovery.test-support';
import { buildLead } from '../leads/leads.test-support';
import { insertKeyword, insertSubreddit } from '../subreddits/subreddits.test-support';
import {
  addSendCredential,
  BROWSER,
  buildAccount,
  buildDm,
  buildReply,
  buildSearch,
  connectSimAccount,
} from './statistics.test-support';

/** Now, for the context and the simulator: after every fixture below. */
const NOW = Date.UTC(2026, 0, 20, 12);
const clock = virtualClock(NOW);
const at = (day: number, hour = 10, minute = 0) => new Date(Date.UTC(2026, 0, day, hour, minute));

let t: TestApp;
let admin: TestUser;
let moderator: TestUser;
type Project = Awaited<ReturnType<typeof buildProject>>;
const queue = recordingQueue();
let a: Project;
let b: Project;
let c: Project;

beforeAll(async () => {
  // A database of its own: the all-projects figures count every project there is.
  t = await createDiscoveryApp({ reddit: { clock }, queue: queue.starter });
  const db = t.ctx.db;
  admin = await buildUser(db, t.config, { roles: ['ADMIN'] });
  moderator = await buildUser(db, t.config, { roles: ['MODERATOR'] });
  a = await buildProject(db, t.config, { name: 'Alpha' });
  b = await buildProject(db, t.config, { name: 'Beta' });
  c = await buildProject(db, t.config, { name: 'Gamma' });
  await buildProject(db, t.config, { name: 'Idle' });

  await insertKeyword(db, a.id, { keyword: 'crm', approved: true });
  await insertKeyword(db, a.id, { keyword: 'sales', approved: false });
  await insertSubreddit(db, a.id, { name: 'saas', approved: true });
  await insertSubreddit(db, a.id, { name: 'startups', approved: false });
  const a1 = await buildAccount(db, a, { redditUsername: 'alpha_one' });
  const a2 = await buildAccount(db, a, { redditUsername: 'alpha_two' });
  await buildAccount(db, c, { redditUsername: 'gamma_one' });

  // Alpha's leads: 2 posts on the 5th (one subreddit, spelled two ways), a post and a comment on the 6th;
  // outside 5-11 January: the 4th, and the very first instant of the 12th.
  await buildLead(db, a.id, { subreddit: 'saas', foundAt: at(5) });
  await buildLead(db, a.id, { subreddit: 'SaaS', foundAt: at(5, 0, 0) });
  await buildLead(db, a.id, { subreddit: 'startups', foundAt: at(6, 23, 59) });
  await buildLead(db, a.id, { kind: 'comment', foundAt: at(6) });
  await buildLead(db, a.id, { foundAt: at(4, 23, 59) });
  await buildLead(db, a.id, { foundAt: at(12, 0, 0) });

  // Alpha's DMs (each drafted an hour before `at`).
  const answered = await buildDm(db, a, 'sent', at(5), { accountId: a1.id, subreddit: 'saas' });
  await buildReply(db, answered, at(6, 8));
  await buildDm(db, a, 'sent', at(6), { accountId: a1.id, subreddit: 'startups' });
  await buildDm(db, a, 'failed', at(6, 14), { accountId: a2.id });
  await buildDm(db, a, 'expired', at(7));
  await buildDm(db, a, 'approved', at(7, 12));
  // Drafted late on the 11th, sent on the 12th.
  await buildDm(db, a, 'sent', at(12, 0, 30), { accountId: a1.id });
  await buildSearch(db, a.id, at(5, 9));
  await buildSearch(db, a.id, at(5, 15));
  await buildSearch(db, a.id, at(20, 9));

  await buildLead(db, b.id, { subreddit: 'python', foundAt: at(7) });
  await buildDm(db, b, 'sent', at(7, 11), { subreddit: 'python' });

  // Gamma searched on the 7th and found nothing.
  await buildSearch(db, c.id, at(7, 16));
});
afterAll(() => t?.close());

function get<T>(url: string, user: TestUser = admin) {
  return t.app.inject({ url, headers: user.auth }).then((res) => ({
    status: res.statusCode,
    body: res.json() as T,
  }));
}
function post(url: string, user: TestUser = admin) {
  return t.app.inject({ method: 'POST', url, headers: user.auth });
}

const WEEK = 'start_date=2026-01-05&end_date=2026-01-11';
const allProjects = (query: string, user?: TestUser) =>
  get<TDailyStatisticsResponse>(`/api/v1/all-projects/daily-statistics?${query}`, user);

describe('GET /all-projects/daily-statistics', () => {
  it('by project: every project with activity, busiest first, with subreddits and accounts', async () => {
    const { status, body } = await allProjects(`${WEEK}&group_by=project`);
    expect(status).toBe(200);
    if (body.group_by !== 'project') throw new Error('grouped by project');
    expect(body.data.map((p) => p.project_name)).toEqual(['Alpha', 'Beta', 'Gamma']);
    const [alpha, beta, gamma] = body.data;
    expect(alpha).toEqual({
      project_id: a.id,
      project_name: 'Alpha',
      accounts_connected: 2,
      approved_keywords: 1,
      approved_subreddits: 1,
      total_posts_searched: 3,
      total_messages_generated: 6,
      sent: 2,
      failed: 1,
      expired: 1,
      top_subreddits: [
        { subreddit: 'saas', posts: 2, dms_sent: 1 },
        { subreddit: 'startups', posts: 1, dms_sent: 1 },
      ],
      accounts: [
        { account_id: expect.any(String), username: 'alpha_one', dms_sent: 2, dms_failed: 0 },
        { account_id: expect.any(String), username: 'alpha_two', dms_sent: 0, dms_failed: 1 },
      ],
    });
    expect(beta).toMatchObject({ accounts_connected: 0, total_posts_searched: 1, sent: 1, accounts: [] });
    expect(gamma).toMatchObject({
      accounts_connected: 1,
      total_posts_searched: 0,
      total_messages_generated: 0,
      accounts: [{ username: 'gamma_one', dms_sent: 0, dms_failed: 0 }],
    });
    expect(body.summary).toEqual({
      total_projects: 3,
      total_accounts: 3,
      total_posts_found: 4,
      total_dms_generated: 7,
      sent: 3,
      failed: 1,
      expired: 1,
      total_replies: 1,
    });
    expect(body).toMatchObject({ start_date: '2026-01-05', end_date: '2026-01-11' });
  });

  it('charts every day of the range: DMs sent, replies received and leads found', async () => {
    const { body } = await allProjects(WEEK);
    expect(body.group_by).toBe('project');
    expect(body.series).toEqual([
      { date: '2026-01-05', dms_sent: 1, replies: 0, leads: 2 },
      { date: '2026-01-06', dms_sent: 1, replies: 1, leads: 2 },
      { date: '2026-01-07', dms_sent: 1, replies: 0, leads: 1 },
      { date: '2026-01-08', dms_sent: 0, replies: 0, leads: 0 },
      { date: '2026-01-09', dms_sent: 0, replies: 0, leads: 0 },
      { date: '2026-01-10', dms_sent: 0, replies: 0, leads: 0 },
      { date: '2026-01-11', dms_sent: 0, replies: 0, leads: 0 },
    ]);
  });

  it('by day: a row per day and project with activity, newest day first', async () => {
    const { body } = await allProjects(`${WEEK}&group_by=day`);
    if (body.group_by !== 'day') throw new Error('grouped by day');
    const row = (date: string, p: Project, counts: object) => ({
      date,
      project_id: p.id,
      project_name: p.name,
      ...{ posts_searched: 0, messages_generated: 0, sent: 0, failed: 0, expired: 0, ...counts },
    });
    expect(body.data).toEqual([
      row('2026-01-11', a, { messages_generated: 1 }),
      row('2026-01-07', a, { messages_generated: 2, expired: 1 }),
      row('2026-01-07', b, { posts_searched: 1, messages_generated: 1, sent: 1 }),
      // A search that found nothing is still the project's activity that day.
      row('2026-01-07', c, {}),
      row('2026-01-06', a, { posts_searched: 1, messages_generated: 2, sent: 1, failed: 1 }),
      row('2026-01-05', a, { posts_searched: 2, messages_generated: 1, sent: 1 }),
    ]);
    expect(body.summary).toMatchObject({ total_projects: 3, total_accounts: 3, total_posts_found: 4 });
  });

  it.each([
    ['a week', WEEK],
    ['a single day', 'start_date=2026-01-12&end_date=2026-01-12'],
    ['a month', 'start_date=2026-01-01&end_date=2026-01-31'],
    ['a range before any project existed', 'start_date=2025-06-01&end_date=2025-06-30'],
  ])('sums up %s the same whichever the grouping', async (_, range) => {
    const byProject = await allProjects(`${range}&group_by=project`);
    const byDay = await allProjects(`${range}&group_by=day`);
    expect(byDay.body.summary).toEqual(byProject.body.summary);
  });

  it('lists no project in a range before it existed, whatever is connected to it now', async () => {
    const june = 'start_date=2025-06-01&end_date=2025-06-30';
    for (const groupBy of ['project', 'day']) {
      const { body } = await allProjects(`${june}&group_by=${groupBy}`);
      expect(body).toMatchObject({ data: [], total: 0 });
      expect(body.summary).toMatchObject({ total_projects: 0, total_accounts: 0 });
    }
  });

  it('counts a single day, and nothing in a range where nothing happened', async () => {
    const { body } = await allProjects('start_date=2026-01-12&end_date=2026-01-12&group_by=day');
    expect(body.data).toEqual([
      expect.objectContaining({ project_id: a.id, posts_searched: 1, sent: 1, messages_generated: 0 }),
    ]);
    const empty = await allProjects('start_date=2025-06-01&end_date=2025-06-30&group_by=day');
    expect(empty.body.data).toEqual([]);
    expect(empty.body.series).toHaveLength(30);
  });

  it('pages the projects and offers each column the values of every one of them', async () => {
    const first = await allProjects(`${WEEK}&limit=2`);
    if (first.body.group_by !== 'project') throw new Error('grouped by project');
    expect(first.body.data.map((p) => p.project_name)).toEqual(['Alpha', 'Beta']);
    expect(first.body).toMatchObject({ total: 3, limit: 2, offset: 0 });
    const second = await allProjects(`${WEEK}&limit=2&offset=2`);
    expect(second.body.data.map((p) => ('project_name' in p ? p.project_name : ''))).toEqual(['Gamma']);
    // The summary and the filters' values are the range's, whatever the page.
    expect(second.body.summary.total_projects).toBe(3);
    expect(second.body.filter_values).toMatchObject({
      project: ['Alpha', 'Beta', 'Gamma'],
      accounts: ['0', '1', '2'],
      sent: ['0', '1', '2'],
    });
  });

  it('lets through the rows whose filtered columns hold a chosen value, then pages them', async () => {
    // The accounts column as /stats first shows it: projects with an account connected.
    const withAccounts = await allProjects(`${WEEK}&filter=accounts:1&filter=accounts:2`);
    expect(withAccounts.body.data.map((p) => ('project_name' in p ? p.project_name : ''))).toEqual([
      'Alpha',
      'Gamma',
    ]);
    expect(withAccounts.body.total).toBe(2);
    expect(withAccounts.body.filter_values.accounts).toEqual(['0', '1', '2']);
    const both = await allProjects(`${WEEK}&filter=accounts:1&filter=accounts:2&filter=sent:0`);
    expect(both.body.data.map((p) => ('project_name' in p ? p.project_name : ''))).toEqual(['Gamma']);
    const none = await allProjects(`${WEEK}&filter=project:Nobody`);
    expect(none.body).toMatchObject({ data: [], total: 0 });
  });

  it('by day: pages and filters whole days, each with every project of that day', async () => {
    const { body } = await allProjects(`${WEEK}&group_by=day&limit=1&offset=1`);
    if (body.group_by !== 'day') throw new Error('grouped by day');
    expect(body.data.map((r) => [r.date, r.project_name])).toEqual([
      ['2026-01-07', 'Alpha'],
      ['2026-01-07', 'Beta'],
      ['2026-01-07', 'Gamma'],
    ]);
    expect(body).toMatchObject({ total: 4, limit: 1, offset: 1 });
    expect(body.filter_values).toMatchObject({
      date: ['2026-01-05', '2026-01-06', '2026-01-07', '2026-01-11'],
      projects: ['1', '3'],
    });
    const twoProjects = await allProjects(`${WEEK}&group_by=day&filter=projects:1&filter=sent:1`);
    expect(twoProjects.body.data.map((r) => ('date' in r ? r.date : ''))).toEqual([
      '2026-01-06',
      '2026-01-05',
    ]);
    expect(twoProjects.body.total).toBe(2);
  });

  it("counts an account's sends from before it was removed and connected again", async () => {
    const p = await buildProject(t.ctx.db, t.config, { name: 'Reconnected' });
    const first = await buildAccount(t.ctx.db, p, { redditUsername: 'Back_Again' });
    await buildDm(t.ctx.db, p, 'sent', at(16), { accountId: first.id });
    await t.ctx.db.delete(redditAccounts).where(eq(redditAccounts.id, first.id));
    const again = await buildAccount(t.ctx.db, p, { redditUsername: 'back_again' });
    const { body } = await allProjects(
      'start_date=2026-01-16&end_date=2026-01-16&filter=project:Reconnected',
    );
    if (body.group_by !== 'project') throw new Error('grouped by project');
    expect(body.data[0]!.accounts).toEqual([
      { account_id: again.id, username: 'back_again', dms_sent: 1, dms_failed: 0 },
    ]);
  });

  it('lists an account removed since it sent, so the accounts add up to the totals', async () => {
    const p = await buildProject(t.ctx.db, t.config, { name: 'Removed' });
    const kept = await buildAccount(t.ctx.db, p, { redditUsername: 'still_here' });
    const gone = await buildAccount(t.ctx.db, p, { redditUsername: 'Long_Gone' });
    await buildDm(t.ctx.db, p, 'sent', at(17), { accountId: gone.id });
    await buildDm(t.ctx.db, p, 'sent', at(17, 9), { accountId: gone.id });
    await buildDm(t.ctx.db, p, 'failed', at(17, 10), { accountId: gone.id });
    await buildDm(t.ctx.db, p, 'sent', at(18), { accountId: gone.id });
    await t.ctx.db.delete(redditAccounts).where(eq(redditAccounts.id, gone.id));
    const { body } = await allProjects('start_date=2026-01-17&end_date=2026-01-17&filter=project:Removed');
    if (body.group_by !== 'project') throw new Error('grouped by project');
    expect(body.data[0]).toMatchObject({ accounts_connected: 1, sent: 2, failed: 1 });
    expect(body.data[0]!.accounts).toEqual([
      { account_id: kept.id, username: 'still_here', dms_sent: 0, dms_failed: 0 },
      { account_id: null, username: 'long_gone', dms_sent: 2, dms_failed: 1 },
    ]);
  });

  it('is for moderators and admins', async () => {
    expect((await allProjects(WEEK, moderator)).status).toBe(200);
    const customer = await allProjects(WEEK, a.owner);
    expect(customer.status).toBe(403);
    expect(customer.body).toMatchObject({ code: 'insufficient_role' });
  });

  it.each([
    ['start_date=2026-01-32&end_date=2026-02-01', 'start_date is not a real calendar date'],
    ['start_date=05-01-2026&end_date=2026-02-01', 'start_date must be a date as YYYY-MM-DD, e.g. 2030-01-31'],
    ['start_date=2026-01-12&end_date=2026-01-11', 'The range starts after it ends'],
    ['start_date=2025-01-01&end_date=2026-01-02', 'The range is longer than 366 days'],
    [`${WEEK}&group_by=week`, "Unknown group_by 'week': use project or day"],
    ['end_date=2026-01-11', 'start_date is required, as a date YYYY-MM-DD'],
    // The day after the range must stay a year PostgreSQL can write.
    ['start_date=0001-01-01&end_date=2026-01-02', 'start_date must be a date between 2000 and 2100'],
    ['start_date=2026-01-01&end_date=9999-12-31', 'end_date must be a date between 2000 and 2100'],
    [
      `${WEEK}&filter=date:2026-01-05`,
      "Unknown column 'date' in filter: the project view has project, accounts, keywords, subreddits, posts, generated, sent, failed, expired",
    ],
    [`${WEEK}&filter=sent`, "filter 'sent' must be column:value, e.g. sent:0"],
    [`${WEEK}&${'filter=sent:1&'.repeat(1001)}`, 'At most 1000 filter values at once'],
    [`${WEEK}&limit=0`, 'limit must be a whole number from 1 to 500'],
    [`${WEEK}&limit=501`, 'limit must be a whole number from 1 to 500'],
    [`${WEEK}&offset=-1`, 'offset must be a whole number, 0 or more'],
  ])('refuses %s with 400 and why', async (query, detail) => {
    const { status, body } = await allProjects(query);
    expect(status).toBe(400);
    expect(body).toMatchObject({ detail, code: 'validation_error' });
  });
});

describe("a project's monthly and date-range statistics", () => {
  const monthly = (query: string, user: TestUser = a.owner, project = a) =>
    get<TMonthlyStatisticsResponse>(`/api/v1/projects/${project.id}/monthly-statistics?${query}`, user);
  const range = (query: string, user: TestUser = a.owner) =>
    get<TDateRangeStatisticsResponse>(`/api/v1/projects/${a.id}/date-range-statistics?${query}`, user);

  it('counts a month: messages, posts, comments, searches and the reply rate, with a point per day', async () => {
    const { status, body } = await monthly('year=2026&month=1');
    expect(status).toBe(200);
    expect(body).toMatchObject({ year: 2026, month: 1, start_date: '2026-01-01', end_date: '2026-01-31' });
    expect(body.summary).toEqual({
      total_messages_sent: 3,
      total_messages_generated: 6,
      total_posts_found: 5,
      total_comments_found: 1,
      total_searches_performed: 3,
      total_messages_failed: 1,
      total_replies: 1,
      reply_rate: 33.3,
    });
    expect(body.granularity).toBe('day');
    expect(body.series).toHaveLength(31);
    expect(body.series[4]).toEqual({ date: '2026-01-05', dms_sent: 1, replies: 0, leads: 2 });
  });

  it('counts the whole year by month without a month, and an empty month as nothing', async () => {
    const year = await monthly('year=2026');
    expect(year.body).toMatchObject({ month: null, start_date: '2026-01-01', end_date: '2026-12-31' });
    expect(year.body.granularity).toBe('month');
    expect(year.body.series.map((p) => p.date)).toEqual(
      Array.from({ length: 12 }, (_, i) => `2026-${String(i + 1).padStart(2, '0')}-01`),
    );
    expect(year.body.series[0]).toEqual({ date: '2026-01-01', dms_sent: 3, replies: 1, leads: 6 });
    expect(year.body.summary.total_messages_sent).toBe(3);
    const february = await monthly('year=2026&month=2');
    expect(february.body.summary).toMatchObject({ total_messages_sent: 0, reply_rate: null });
    expect(february.body.series).toHaveLength(28);
  });

  it('adds the day count, messages per day and success rate over a range', async () => {
    const { status, body } = await range(WEEK);
    expect(status).toBe(200);
    expect(body).toMatchObject({ start_date: '2026-01-05', end_date: '2026-01-11', date_range_days: 7 });
    expect(body.statistics).toEqual({
      messages_sent: 2,
      messages_generated: 6,
      posts_found: 3,
      comments_found: 1,
      searches_performed: 2,
      average_messages_per_day: 0.29,
      success_rate: 66.7,
      messages_failed: 1,
      replies: 1,
      reply_rate: 50,
    });
    expect(body.series).toHaveLength(7);
    const quiet = await range('start_date=2026-02-01&end_date=2026-02-01');
    expect(quiet.body.statistics).toMatchObject({ messages_sent: 0, success_rate: null, reply_rate: null });
    expect(quiet.body.date_range_days).toBe(1);
  });

  it("is the owner's and admins' to read, no one else's", async () => {
    expect((await monthly('year=2026', admin)).status).toBe(200);
    expect((await monthly('year=2026', b.owner)).status).toBe(404);
    expect((await range(WEEK, b.owner)).status).toBe(404);
  });

  it.each([
    ['', 'year is required, e.g. 2030'],
    ['year=1999', 'year must be a whole number between 2000 and 2100'],
    ['year=abc', 'year must be a whole number between 2000 and 2100'],
    ['year=', 'year must be a whole number between 2000 and 2100'],
    ['year=2026&month=13', 'month must be a number from 1 to 12'],
    ['year=2026&month=0x1', 'month must be a number from 1 to 12'],
  ])('refuses a monthly query %s with 400', async (query, detail) => {
    const { status, body } = await monthly(query);
    expect(status).toBe(400);
    expect(body).toMatchObject({ detail, code: 'validation_error' });
  });

  it('refuses a bad range with 400', async () => {
    const bad = await range('start_date=2026-01-05');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ detail: 'end_date is required, as a date YYYY-MM-DD' });
    expect((await range('start_date=2026-01-05&end_date=2026-01-04')).status).toBe(400);
    expect((await range('start_date=9999-12-31&end_date=9999-12-31')).status).toBe(400);
  });
});

describe('DMs held back because of their person', () => {
  it('are not failed sends: no statistic counts them as failed, nor do they lower the success rate', async () => {
    const db = t.ctx.db;
    const w = await buildProject(db, t.config, { name: 'Withheld' });
    const account = await buildAccount(db, w, { redditUsername: 'whiskey_one' });
    const march = (day: number) => new Date(Date.UTC(2026, 2, day, 10));
    await buildDm(db, w, 'sent', march(2), { accountId: account.id });
    await buildDm(db, w, 'failed', march(3), { accountId: account.id, outcomeCode: 'compose_refused' });
    // Send All found these already contacted from another project, or on the do-not-contact list.
    await buildDm(db, w, 'failed', march(3), { outcomeCode: 'already_contacted' });
    await buildDm(db, w, 'failed', march(4), { accountId: account.id, outcomeCode: 'suppressed' });
    await buildDm(db, w, 'failed', march(4), { outcomeCode: 'replied' });

    const month = await get<TMonthlyStatisticsResponse>(
      `/api/v1/projects/${w.id}/monthly-statistics?year=2026&month=3`,
      w.owner,
    );
    expect(month.body.summary).toMatchObject({ total_messages_generated: 5, total_messages_failed: 1 });
    const range = await get<TDateRangeStatisticsResponse>(
      `/api/v1/projects/${w.id}/date-range-statistics?start_date=2026-03-01&end_date=2026-03-07`,
      w.owner,
    );
    expect(range.body.statistics).toMatchObject({ messages_sent: 1, messages_failed: 1, success_rate: 50 });
    const all = await allProjects('start_date=2026-03-01&end_date=2026-03-07&group_by=project');
    if (all.body.group_by !== 'project') throw new Error('grouped by project');
    const row = all.body.data.find((r) => r.project_id === w.id)!;
    expect(row).toMatchObject({ sent: 1, failed: 1 });
    expect(row.accounts).toEqual([
      { account_id: account.id, username: 'whiskey_one', dms_sent: 1, dms_failed: 1 },
    ]);
    const campaign = await t.app.inject({
      url: `/api/v1/campaign-statistics?project_id=${w.id}`,
      headers: w.owner.auth,
    });
    expect(campaign.json()).toMatchObject({ generated: 5, sent: 1, failed: 1 });
  });
});

describe('admin actions on a project', () => {
  it("Reset Daily Limits starts today's quota of each account afresh", async () => {
    const p = await buildProject(t.ctx.db, t.config);
    const first = await buildAccount(t.ctx.db, p);
    const second = await buildAccount(t.ctx.db, p);
    await buildDm(t.ctx.db, p, 'sent', new Date(NOW - 3_600_000), { accountId: first.id });
    await buildDm(t.ctx.db, p, 'sent', new Date(NOW - 7_200_000), { accountId: first.id });
    const reload = async () =>
      (await t.ctx.db.select().from(redditAccounts).where(eq(redditAccounts.id, first.id)))[0]!;
    expect(await usedToday(t.ctx.db, await reload(), clock.now())).toBe(2);

    const res = await post(`/api/v1/projects/${p.id}/reset-daily-limits`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Daily limits reset for 2 accounts.', accounts_reset: 2 });
    expect(await usedToday(t.ctx.db, await reload(), clock.now())).toBe(0);
    // DMs queued for a later day may go today now.
    expect(queue.jobs.at(-1)).toMatchObject({ name: 'pull-queue-forward', data: { projectId: p.id } });
    // Sends after the reset count again.
    clock.t += 60_000;
    await buildDm(t.ctx.db, p, 'sent', new Date(clock.t), { accountId: first.id });
    expect(await usedToday(t.ctx.db, await reload(), clock.now())).toBe(1);
    const [other] = await t.ctx.db.select().from(redditAccounts).where(eq(redditAccounts.id, second.id));
    expect(other!.quotaResetAt?.getTime()).toBe(NOW);
  });

  it('Refresh All Tokens renews each grant through Reddit and counts the refused ones', async () => {
    const p = await buildProject(t.ctx.db, t.config);
    const credential = await addSendCredential(t.ctx);
    const good = await connectSimAccount(t.ctx, p, credential.id, 'demo_founder');
    const revoked = await connectSimAccount(t.ctx, p, credential.id, 'growth_marketer');
    const revoke = await fetch(new URL('/api/v1/revoke_token', t.sim!.url), {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${credential.clientId}:${credential.clientSecret}`).toString('base64')}`,
        'user-agent': BROWSER,
      },
      body: new URLSearchParams({ token: revoked.refreshToken }),
    });
    expect(revoke.status).toBe(204);
    await buildAccount(t.ctx.db, p, { redditUsername: 'zz_never_signed_in' });
    // A token in hand, still good for most of a day: the refresh replaces it all the same.
    await asAccount(t.ctx, good.account, (api) => api.me());
    const issued = async () =>
      (
        await t.ctx.db
          .select()
          .from(redditAccessTokens)
          .where(eq(redditAccessTokens.subject, `account:${good.account.id}`))
      )[0]?.createdAt.getTime();
    expect(await issued()).toBe(clock.t);
    clock.t += 60_000;

    const res = await post(`/api/v1/projects/${p.id}/refresh-all-tokens`);
    expect(res.statusCode).toBe(200);
    const body = res.json() as TRefreshAllTokensResponse;
    expect(body).toMatchObject({
      refreshed_accounts: 1,
      failed_accounts: 2,
      message: 'Tokens refreshed for 1 account; 2 accounts failed.',
    });
    expect(body.accounts.map((r) => [r.reddit_username, r.refreshed])).toEqual([
      ['demo_founder', true],
      ['growth_marketer', false],
      ['zz_never_signed_in', false],
    ]);
    expect(body.accounts[1]!.error).toMatch(/re-authenticated/);
    const rows = await t.ctx.db.select().from(redditAccounts).where(eq(redditAccounts.projectId, p.id));
    const status = Object.fromEntries(rows.map((r) => [r.redditUsername, r.authStatus]));
    expect(status).toMatchObject({ demo_founder: 'valid', growth_marketer: 'expired' });
    expect(rows.find((r) => r.id === good.account.id)!.authCheckedAt?.getTime()).toBe(clock.t);
    expect(await issued()).toBe(clock.t);
    expect(JSON.stringify(body)).not.toContain(good.refreshToken);
  });

  it('says so when the project has no accounts', async () => {
    const p = await buildProject(t.ctx.db, t.config);
    const res = await post(`/api/v1/projects/${p.id}/refresh-all-tokens`);
    expect(res.json()).toEqual({
      refreshed_accounts: 0,
      failed_accounts: 0,
      message: 'This project has no connected accounts.',
      accounts: [],
    });
  });

  it('is for admins only, and answers 404 for a project that does not exist', async () => {
    for (const path of ['reset-daily-limits', 'refresh-all-tokens']) {
      const asOwner = await post(`/api/v1/projects/${a.id}/${path}`, a.owner);
      expect(asOwner.statusCode).toBe(403);
      expect((await post(`/api/v1/projects/${a.id}/${path}`, moderator)).statusCode).toBe(403);
      const missing = await post(`/api/v1/projects/${randomUUID()}/${path}`);
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toEqual({ detail: 'Project not found', code: 'not_found' });
    }
  });
});
