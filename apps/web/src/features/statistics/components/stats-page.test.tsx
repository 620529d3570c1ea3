import { beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { statisticsEndpoints } from '@threadreach/contract';
import { errorReply, mockEndpoint, sentRequests } from '../../../test/api-mock.test-support';
import { mockPublicConfig } from '../../../test/public-config.test-support';
import { renderApp } from '../../../test/render-app';
import { makeToken } from '../../../test/tokens';
import { setToken } from '../../../lib/token-storage';
import { DEMO_MODE_TEXT } from '../../../components/ui/demo-mode-badge';
import { ACCESS_DENIED_TEXT } from '../../auth';
import { QUICK_RANGES, currentWeek } from '../stats-dates';
import { browserClockAt, byDay, byProject, dayStats, projectStats } from '../statistics.test-support';

/** The page's chunk loads lazily: the first render of a file can take a while on a busy machine. */
const LOAD = { timeout: 5000 };
const user = userEvent.setup({ delay: null });
const signIn = (roles: string[]) => setToken(makeToken({ roles, profiles_limit: 0 }));

const PROJECTS = [
  projectStats({
    project_id: 'p-1',
    project_name: 'Alpha',
    accounts_connected: 2,
    approved_keywords: 4,
    approved_subreddits: 3,
    total_posts_searched: 12,
    total_messages_generated: 6,
    sent: 5,
    failed: 1,
    top_subreddits: [
      { subreddit: 'saas', posts: 8, dms_sent: 3 },
      { subreddit: 'startups', posts: 4, dms_sent: 2 },
    ],
    accounts: [
      { account_id: 'a-1', username: 'alpha_one', dms_sent: 5, dms_failed: 0 },
      { account_id: 'a-2', username: 'alpha_two', dms_sent: 0, dms_failed: 1 },
      { account_id: null, username: 'alpha_gone', dms_sent: 2, dms_failed: 0 },
    ],
  }),
  projectStats({ project_id: 'p-2', project_name: 'Beta', total_posts_searched: 3 }),
  projectStats({ project_id: 'p-3', project_name: 'Gamma', accounts_connected: 1, sent: 1 }),
];

const table = (name: string) => screen.findByRole('table', { name }, LOAD);
const projectNames = (t: HTMLElement) =>
  within(t)
    .getAllByRole('row')
    .slice(1)
    .map((r) => within(r).queryAllByRole('cell')[1]?.textContent);

// The page's heading reads whether the server runs the demo.
beforeEach(() => {
  mockPublicConfig({ demo_mode: false });
});

describe('/stats', { timeout: 20_000 }, () => {
  it('shows Access Denied to a USER and asks for nothing', async () => {
    setToken(makeToken({ roles: ['USER'] }));
    renderApp('/stats');
    expect(await screen.findByText(ACCESS_DENIED_TEXT, {}, LOAD)).toBeTruthy();
    const path = statisticsEndpoints.allProjects.path;
    expect(sentRequests().filter((r) => r.url.pathname === path)).toHaveLength(0);
  });

  it(
    'loads this week by project: cards, chart, columns, and projects without accounts filtered out',
    { timeout: 15_000 },
    async () => {
      signIn(['MODERATOR']);
      const stats = mockEndpoint(statisticsEndpoints.allProjects, ({ query }) =>
        byProject(PROJECTS, { total_projects: 3, total_accounts: 3, total_posts_found: 15, sent: 6 }, query),
      );
      renderApp('/stats');
      const t = await table('Statistics by project');
      const week = currentWeek(new Date());
      expect(stats.calls[0]!.query).toEqual({
        start_date: week.start,
        end_date: week.end,
        group_by: 'project',
        limit: 100,
        offset: 0,
      });
      expect((screen.getByLabelText('Start Date') as HTMLInputElement).value).toBe(week.start);
      const cards = screen.getByRole('list', { name: 'Summary' });
      expect(within(cards).getByRole('listitem', { name: 'Projects' }).textContent).toContain('3');
      expect(within(cards).getByRole('listitem', { name: 'Posts Found' }).textContent).toContain('15');
      expect(within(cards).getByRole('listitem', { name: 'DMs Sent' }).textContent).toContain('6');
      expect(await screen.findByTestId('statistics-chart', {}, LOAD)).toBeTruthy();

      const headers = within(t)
        .getAllByRole('columnheader')
        .map((h) => h.textContent?.replace('▾', '').trim());
      expect(headers).toEqual([
        '',
        'Project',
        'Accounts',
        'Keywords',
        'Subreddits',
        'Posts',
        'DMs Generated',
        'Sent',
        'Failed',
        'Expired',
      ]);
      // Beta has no account: hidden until the column filters are cleared.
      await waitFor(() => expect(projectNames(t)).toEqual(['Alpha', 'Gamma']));
      expect(stats.calls.at(-1)!.query).toMatchObject({ filter: ['accounts:1', 'accounts:2'] });
      await user.click(screen.getByRole('button', { name: 'Clear column filters' }));
      await waitFor(() => expect(projectNames(t)).toEqual(['Alpha', 'Beta', 'Gamma']));
      expect(screen.getByRole('button', { name: 'Clear column filters' })).toHaveProperty('disabled', true);
    },
  );

  it('filters any column by its values and opens a project to its subreddits and accounts', async () => {
    signIn(['ADMIN']);
    mockEndpoint(statisticsEndpoints.allProjects, ({ query }) => byProject(PROJECTS, {}, query));
    renderApp('/stats');
    const t = await table('Statistics by project');
    await waitFor(() => expect(projectNames(t)).toEqual(['Alpha', 'Gamma']));
    await user.click(screen.getByRole('button', { name: 'Clear column filters' }));
    await waitFor(() => expect(projectNames(t)).toEqual(['Alpha', 'Beta', 'Gamma']));

    await user.click(within(t).getByRole('button', { name: 'Filter Sent' }));
    const values = await screen.findByRole('group', { name: 'Sent values' });
    expect(
      within(values)
        .getAllByRole('checkbox')
        .map((c) => c.getAttribute('value')),
    ).toEqual(['0', '1', '5']);
    await user.click(within(values).getByLabelText('0'));
    await user.click(within(values).getByLabelText('5'));
    await waitFor(() => expect(projectNames(t)).toEqual(['Alpha', 'Beta']));

    await user.click(within(t).getByRole('button', { name: 'Show details of Alpha' }));
    const subs = screen.getByRole('table', { name: 'Top subreddits of Alpha' });
    expect(within(subs).getAllByRole('row')[1]!.textContent).toBe('r/saas83');
    const accounts = screen.getByRole('table', { name: 'Accounts of Alpha' });
    expect(within(accounts).getAllByRole('row')[2]!.textContent).toBe('u/alpha_two01');
    expect(within(accounts).getAllByRole('row')[3]!.textContent).toBe('u/alpha_gone (removed)20');
    await user.click(within(t).getByRole('button', { name: 'Hide details of Alpha' }));
    expect(screen.queryByRole('table', { name: 'Top subreddits of Alpha' })).toBeNull();

    await user.click(within(t).getByRole('button', { name: 'Filter Project' }));
    await user.click(
      within(await screen.findByRole('group', { name: 'Project values' })).getByLabelText('Gamma'),
    );
    expect(await screen.findByText('No data available for the selected filters')).toBeTruthy();
  });

  it('groups by day on Apply Filters: days newest first, each opening to its projects', async () => {
    signIn(['ADMIN']);
    const stats = mockEndpoint(statisticsEndpoints.allProjects, ({ query }) =>
      query.group_by === 'day'
        ? byDay(
            [
              dayStats({ date: '2030-01-07', project_name: 'Alpha', posts_searched: 2, sent: 1 }),
              dayStats({ date: '2030-01-07', project_id: 'p-2', project_name: 'Beta', posts_searched: 1 }),
              dayStats({ date: '2030-01-09', project_name: 'Alpha', messages_generated: 4, failed: 1 }),
            ],
            query,
          )
        : byProject(PROJECTS, {}, query),
    );
    renderApp('/stats');
    await table('Statistics by project');
    await user.selectOptions(screen.getByLabelText('Group By'), 'Day');
    await user.clear(screen.getByLabelText('Start Date'));
    await user.type(screen.getByLabelText('Start Date'), '2030-01-07');
    await user.clear(screen.getByLabelText('End Date'));
    await user.type(screen.getByLabelText('End Date'), '2030-01-09');
    await user.click(screen.getByRole('button', { name: 'Apply Filters' }));

    const t = await table('Statistics by day');
    expect(stats.calls.at(-1)!.query).toEqual({
      start_date: '2030-01-07',
      end_date: '2030-01-09',
      group_by: 'day',
      limit: 100,
      offset: 0,
    });
    const rows = within(t).getAllByRole('row').slice(1);
    expect(
      rows.map((r) =>
        within(r)
          .getAllByRole('cell')
          .slice(1)
          .map((c) => c.textContent),
      ),
    ).toEqual([
      ['Wed, Jan 9, 2030', '0', '4', '0', '1', '0', '1'],
      ['Mon, Jan 7, 2030', '3', '0', '1', '0', '0', '2'],
    ]);
    await user.click(within(t).getByRole('button', { name: 'Show details of 2030-01-07' }));
    const projects = screen.getByRole('table', { name: 'Projects on 2030-01-07' });
    expect(
      within(projects)
        .getAllByRole('row')
        .map((r) => r.textContent),
    ).toEqual(['ProjectPostsGeneratedSentFailedExpired', 'Alpha20100', 'Beta10000']);

    await user.click(within(t).getByRole('button', { name: 'Filter Projects' }));
    await user.click(
      within(await screen.findByRole('group', { name: 'Projects values' })).getByLabelText('1'),
    );
    await waitFor(() => expect(within(t).getAllByRole('row')).toHaveLength(2));
  });

  it('shows 100 rows a page and asks the server for the next page', async () => {
    signIn(['ADMIN']);
    const many = Array.from({ length: 150 }, (_, i) =>
      projectStats({
        project_id: `p-${i}`,
        project_name: `Project ${String(i).padStart(3, '0')}`,
        accounts_connected: 1,
      }),
    );
    const stats = mockEndpoint(statisticsEndpoints.allProjects, ({ query }) => byProject(many, {}, query));
    renderApp('/stats');
    const t = await table('Statistics by project');
    await waitFor(() => expect(screen.getByText('1–100 of 150 projects')).toBeTruthy());
    expect(projectNames(t)).toHaveLength(100);
    const pages = screen.getByRole('navigation', { name: 'Statistics pages' });
    await user.click(within(pages).getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(screen.getByText('101–150 of 150 projects')).toBeTruthy());
    expect(projectNames(t)).toHaveLength(50);
    expect(projectNames(t)[0]).toBe('Project 100');
    expect(stats.calls.at(-1)!.query).toMatchObject({ limit: 100, offset: 100 });
    // A filter starts again from the first page.
    await user.click(within(t).getByRole('button', { name: 'Filter Project' }));
    await user.click(
      within(await screen.findByRole('group', { name: 'Project values' })).getByLabelText('Project 120'),
    );
    await waitFor(() => expect(screen.getByText('1–1 of 1 project')).toBeTruthy());
    expect(stats.calls.at(-1)!.query).toMatchObject({ offset: 0 });
    // Two pages of 100 rendered rows and a filter menu of 150 values: 12 s on a busy 2-core machine.
  }, 45_000);

  it("says when the figures are the demo's", async () => {
    signIn(['ADMIN']);
    mockPublicConfig({ demo_mode: true });
    mockEndpoint(statisticsEndpoints.allProjects, byProject([]));
    renderApp('/stats');
    await table('Statistics by project');
    expect(screen.getByText(DEMO_MODE_TEXT)).toBeTruthy();
  });

  it('applies a quick range at once', async () => {
    signIn(['ADMIN']);
    const stats = mockEndpoint(statisticsEndpoints.allProjects, byProject([]));
    renderApp('/stats');
    await table('Statistics by project');
    expect(screen.getByText('No data available for the selected filters')).toBeTruthy();
    for (const q of QUICK_RANGES) {
      await user.click(screen.getByRole('button', { name: q.label }));
      const range = q.range(new Date());
      await waitFor(() =>
        expect(stats.calls.at(-1)!.query).toEqual({
          start_date: range.start,
          end_date: range.end,
          group_by: 'project',
          limit: 100,
          offset: 0,
        }),
      );
      expect((screen.getByLabelText('End Date') as HTMLInputElement).value).toBe(range.end);
    }
  });

  it('counts this week and the quick ranges to the UTC day the server counts, not the local one', async () => {
    // Saturday 28 November at 23:45 in Los Angeles is Sunday 29 November 07:45 UTC.
    browserClockAt('America/Los_Angeles', '2026-11-29T07:45:00Z');
    signIn(['ADMIN']);
    const stats = mockEndpoint(statisticsEndpoints.allProjects, byProject([]));
    renderApp('/stats');
    await table('Statistics by project');
    const asked = () => {
      const { start_date, end_date } = stats.calls.at(-1)!.query;
      return { start_date, end_date };
    };
    expect(asked()).toEqual({ start_date: '2026-11-23', end_date: '2026-11-29' });
    expect((screen.getByLabelText('End Date') as HTMLInputElement).value).toBe('2026-11-29');
    const expected: Record<string, [string, string]> = {
      'Last 7 Days': ['2026-11-23', '2026-11-29'],
      'Last 30 Days': ['2026-10-31', '2026-11-29'],
      'This Month': ['2026-11-01', '2026-11-29'],
    };
    for (const [label, [start, end]] of Object.entries(expected)) {
      await user.click(screen.getByRole('button', { name: label }));
      await waitFor(() => expect(asked()).toEqual({ start_date: start, end_date: end }));
    }
  });

  it("says 'Failed to fetch statistics: ...' with the server's reason", async () => {
    signIn(['ADMIN']);
    mockEndpoint(statisticsEndpoints.allProjects, errorReply(503, 'Database unavailable', 'unavailable'));
    renderApp('/stats');
    expect(
      await screen.findByText('Failed to fetch statistics: Database unavailable', {}, LOAD),
    ).toBeTruthy();
  });

  it('checks the range before asking: in order and at most 366 days', async () => {
    signIn(['ADMIN']);
    const stats = mockEndpoint(statisticsEndpoints.allProjects, byProject([]));
    renderApp('/stats');
    await table('Statistics by project');
    const setDates = async (start: string, end: string) => {
      await user.clear(screen.getByLabelText('Start Date'));
      await user.type(screen.getByLabelText('Start Date'), start);
      await user.clear(screen.getByLabelText('End Date'));
      await user.type(screen.getByLabelText('End Date'), end);
      await user.click(screen.getByRole('button', { name: 'Apply Filters' }));
    };
    await setDates('2030-01-09', '2030-01-07');
    expect(screen.getByRole('alert').textContent).toBe('The range starts after it ends');
    await setDates('2029-01-01', '2030-01-07');
    expect(screen.getByRole('alert').textContent).toBe('The range is longer than 366 days');
    expect(stats.calls).toHaveLength(1);
  });
});
