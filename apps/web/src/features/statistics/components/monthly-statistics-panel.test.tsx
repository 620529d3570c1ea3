import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useQuery } from '@tanstack/react-query';
import { statisticsEndpoints } from '@threadreach/contract';
import { accountKeys } from '../../accounts';
import { errorReply, mockEndpoint, sentRequests } from '../../../test/api-mock.test-support';
import { PROJECT_ID, browserClockAt, monthlyAnswer, rangeAnswer, renderAs } from '../statistics.test-support';
import { MONTH_NAMES } from '../stats-dates';
import { MonthlyStatisticsPanel } from './monthly-statistics-panel';

const user = userEvent.setup({ delay: null });
const now = new Date();
const thisYear = now.getUTCFullYear();

const card = (list: string, name: string) =>
  within(screen.getByRole('list', { name: list })).getByRole('listitem', { name }).textContent;

function mockMonthly() {
  return mockEndpoint(statisticsEndpoints.monthly, ({ query }) =>
    monthlyAnswer(
      {
        total_messages_sent: query.month ? 3 : 40,
        total_messages_generated: 6,
        total_posts_found: 5,
        total_comments_found: 1,
        total_searches_performed: 2,
        total_replies: 1,
        reply_rate: 33.3,
      },
      { year: query.year, month: query.month ?? null, granularity: query.month ? 'day' : 'month' },
    ),
  );
}

describe('monthly statistics panel', { timeout: 20_000 }, () => {
  it("opens on this month; the year and month pickers ask again, 'All Months' for the year", async () => {
    const monthly = mockMonthly();
    renderAs(['USER'], <MonthlyStatisticsPanel projectId={PROJECT_ID} />);
    await screen.findByRole('list', { name: 'Monthly statistics' });
    expect(monthly.calls[0]!.params).toEqual({ projectId: PROJECT_ID });
    expect(monthly.calls[0]!.query).toEqual({ year: thisYear, month: now.getUTCMonth() + 1 });
    expect(card('Monthly statistics', 'Messages Sent')).toContain('3');
    expect(card('Monthly statistics', 'Messages Generated')).toContain('6');
    expect(card('Monthly statistics', 'Posts Found')).toContain('5');
    expect(card('Monthly statistics', 'Comments Found')).toContain('1');
    expect(card('Monthly statistics', 'Searches Performed')).toContain('2');
    expect(card('Monthly statistics', 'Reply Rate')).toContain('33.3%');
    expect(await screen.findByTestId('statistics-chart', {}, { timeout: 5000 })).toBeTruthy();

    const years = within(screen.getByLabelText('Year'))
      .getAllByRole('option')
      .map((o) => o.textContent);
    expect(years).toEqual(['Select year', ...[0, 1, 2, 3, 4].map((i) => String(thisYear - i))]);
    expect(within(screen.getByLabelText('Month')).getAllByRole('option')[0]!.textContent).toBe('All Months');

    await user.selectOptions(screen.getByLabelText('Year'), String(thisYear - 2));
    await user.selectOptions(screen.getByLabelText('Month'), 'All Months');
    await waitFor(() => expect(monthly.calls.at(-1)!.query).toEqual({ year: thisYear - 2 }));
    await waitFor(() => expect(card('Monthly statistics', 'Messages Sent')).toContain('40'));
    expect(screen.getByText(`All of ${thisYear - 2}`)).toBeTruthy();
    // No Reset Daily Limits or Refresh All Tokens for a customer.
    expect(screen.queryByRole('button', { name: 'Reset Daily Limits' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Refresh All Tokens' })).toBeNull();
  });

  it('opens on the UTC month the figures count, also where the local calendar is a day behind', async () => {
    // 23:45 on New Year's Eve in Los Angeles: already 1 January 2027 in UTC.
    browserClockAt('America/Los_Angeles', '2027-01-01T07:45:00Z');
    const monthly = mockMonthly();
    renderAs(['USER'], <MonthlyStatisticsPanel projectId={PROJECT_ID} />);
    await screen.findByRole('list', { name: 'Monthly statistics' });
    expect(monthly.calls[0]!.query).toEqual({ year: 2027, month: 1 });
    expect((screen.getByLabelText('Year') as HTMLSelectElement).value).toBe('2027');
    expect((screen.getByLabelText('Month') as HTMLSelectElement).value).toBe('1');
    const years = within(screen.getByLabelText('Year'))
      .getAllByRole('option')
      .map((o) => o.textContent);
    expect(years).toEqual(['Select year', '2027', '2026', '2025', '2024', '2023']);
  });

  it('asks for a year before loading anything', async () => {
    const monthly = mockMonthly();
    renderAs(['USER'], <MonthlyStatisticsPanel projectId={PROJECT_ID} />);
    await screen.findByRole('list', { name: 'Monthly statistics' });
    await user.selectOptions(screen.getByLabelText('Year'), 'Select year');
    expect(await screen.findByText('Please select a year to load statistics.')).toBeTruthy();
    expect(monthly.calls).toHaveLength(1);
  });

  it('Show Calendar opens a custom range with its day count, messages per day and success rate', async () => {
    mockMonthly();
    const range = mockEndpoint(
      statisticsEndpoints.dateRange,
      rangeAnswer({
        messages_sent: 2,
        messages_failed: 1,
        average_messages_per_day: 0.29,
        success_rate: 66.7,
        replies: 1,
        reply_rate: 50,
      }),
    );
    renderAs(['USER'], <MonthlyStatisticsPanel projectId={PROJECT_ID} />);
    await screen.findByRole('list', { name: 'Monthly statistics' });
    await user.click(screen.getByRole('button', { name: 'Show Calendar' }));
    await user.click(screen.getByRole('button', { name: 'Load Range' }));
    expect(screen.getByText('Please select both start and end dates.')).toBeTruthy();
    expect(range.calls).toHaveLength(0);

    await user.type(screen.getByLabelText('Range Start'), '2030-01-05');
    await user.type(screen.getByLabelText('Range End'), '2030-01-11');
    await user.click(screen.getByRole('button', { name: 'Load Range' }));
    await screen.findByRole('list', { name: 'Date range statistics' });
    expect(range.calls[0]!.query).toEqual({ start_date: '2030-01-05', end_date: '2030-01-11' });
    expect(card('Date range statistics', 'Days')).toContain('7');
    expect(card('Date range statistics', 'Avg Messages / Day')).toContain('0.29');
    expect(card('Date range statistics', 'Success Rate')).toContain('66.7%');
    expect(card('Date range statistics', 'Reply Rate')).toContain('50%');
    expect(screen.queryByText('Please select both start and end dates.')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Hide Calendar' }));
    expect(await screen.findByRole('list', { name: 'Monthly statistics' })).toBeTruthy();
    expect(screen.queryByLabelText('Range Start')).toBeNull();
  });

  it('Hide Calendar takes its unfinished-range message away with it', async () => {
    mockMonthly();
    renderAs(['USER'], <MonthlyStatisticsPanel projectId={PROJECT_ID} />);
    await screen.findByRole('list', { name: 'Monthly statistics' });
    await user.click(screen.getByRole('button', { name: 'Show Calendar' }));
    await user.click(screen.getByRole('button', { name: 'Load Range' }));
    expect(screen.getByText('Please select both start and end dates.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Hide Calendar' }));
    expect(screen.queryByLabelText('Range Start')).toBeNull();
    expect(screen.queryByText('Please select both start and end dates.')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("choosing a year or a month over a custom range shows that month's figures", async () => {
    const monthly = mockMonthly();
    mockEndpoint(statisticsEndpoints.dateRange, rangeAnswer({ messages_sent: 77 }));
    renderAs(['USER'], <MonthlyStatisticsPanel projectId={PROJECT_ID} />);
    await screen.findByRole('list', { name: 'Monthly statistics' });
    const loadRange = async () => {
      await user.click(screen.getByRole('button', { name: 'Load Range' }));
      await screen.findByRole('list', { name: 'Date range statistics' });
      expect(card('Date range statistics', 'Messages Sent')).toContain('77');
    };
    await user.click(screen.getByRole('button', { name: 'Show Calendar' }));
    await user.type(screen.getByLabelText('Range Start'), '2030-01-05');
    await user.type(screen.getByLabelText('Range End'), '2030-01-11');
    await loadRange();

    // A month other than the one shown at first.
    const other = ((now.getUTCMonth() + 1) % 12) + 1;
    const otherName = MONTH_NAMES[other - 1]!;
    await user.selectOptions(screen.getByLabelText('Month'), otherName);
    await waitFor(() => expect(monthly.calls.at(-1)!.query).toEqual({ year: thisYear, month: other }));
    expect(await screen.findByRole('list', { name: 'Monthly statistics' })).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'Date range statistics' })).toBeNull();
    expect(screen.getByText(`${otherName} ${thisYear}`)).toBeTruthy();
    expect(card('Monthly statistics', 'Messages Sent')).toContain('3');

    await loadRange();
    await user.selectOptions(screen.getByLabelText('Year'), String(thisYear - 1));
    await waitFor(() => expect(monthly.calls.at(-1)!.query).toEqual({ year: thisYear - 1, month: other }));
    expect(await screen.findByText(`${otherName} ${thisYear - 1}`)).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'Date range statistics' })).toBeNull();
  });

  it('names what failed to load', async () => {
    mockEndpoint(statisticsEndpoints.monthly, errorReply(500, 'Internal server error', 'internal'));
    mockEndpoint(statisticsEndpoints.dateRange, errorReply(503, 'Database unavailable', 'unavailable'));
    renderAs(['USER'], <MonthlyStatisticsPanel projectId={PROJECT_ID} />);
    expect(await screen.findByText('Failed to load monthly statistics')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Show Calendar' }));
    await user.type(screen.getByLabelText('Range Start'), '2028-01-01');
    await user.type(screen.getByLabelText('Range End'), '2030-01-01');
    await user.click(screen.getByRole('button', { name: 'Load Range' }));
    // The contract's limits are checked before asking.
    expect(screen.getByText('The range is longer than 366 days')).toBeTruthy();
    await user.clear(screen.getByLabelText('Range End'));
    await user.type(screen.getByLabelText('Range End'), '2027-12-31');
    await user.click(screen.getByRole('button', { name: 'Load Range' }));
    expect(screen.getByText('The range starts after it ends')).toBeTruthy();
    await user.clear(screen.getByLabelText('Range End'));
    await user.type(screen.getByLabelText('Range End'), '2028-01-31');
    await user.click(screen.getByRole('button', { name: 'Load Range' }));
    expect(await screen.findByText('Failed to load date range statistics')).toBeTruthy();
    expect(screen.getByText('Database unavailable')).toBeTruthy();
  });

  it('gives admins Reset Daily Limits and Refresh All Tokens, with what they did, and the accounts reload', async () => {
    mockMonthly();
    const reset = mockEndpoint(statisticsEndpoints.resetDailyLimits, {
      message: 'Daily limits reset for 2 accounts.',
      accounts_reset: 2,
    });
    const refresh = mockEndpoint(statisticsEndpoints.refreshAllTokens, {
      refreshed_accounts: 1,
      failed_accounts: 1,
      message: 'Tokens refreshed for 1 account; 1 account failed.',
      accounts: [
        { account_id: 'a-1', reddit_username: 'demo_founder', refreshed: true, error: null },
        {
          account_id: 'a-2',
          reddit_username: 'growth_marketer',
          refreshed: false,
          error: 'Reddit refused the sign-in: the account needs to be re-authenticated.',
        },
      ],
    });
    // The accounts panel's list, as step 5 holds it beside this panel: counted, not fetched.
    let accountLoads = 0;
    function AccountsList() {
      const list = useQuery({ queryKey: accountKeys.list(PROJECT_ID), queryFn: () => ++accountLoads });
      return <span data-testid="account-loads">{list.data}</span>;
    }
    renderAs(
      ['ADMIN'],
      <>
        <AccountsList />
        <MonthlyStatisticsPanel projectId={PROJECT_ID} />
      </>,
    );
    await user.click(await screen.findByRole('button', { name: 'Reset Daily Limits' }));
    expect(await screen.findByText('Daily limits reset for 2 accounts.')).toBeTruthy();
    expect(reset.calls[0]!.params).toEqual({ projectId: PROJECT_ID });
    await waitFor(() => expect(screen.getByTestId('account-loads').textContent).toBe('2'));

    await user.click(screen.getByRole('button', { name: 'Refresh All Tokens' }));
    expect(await screen.findByText('Tokens refreshed for 1 account; 1 account failed.')).toBeTruthy();
    expect(screen.getByText('Refreshed: 1 · Failed: 1')).toBeTruthy();
    expect(
      screen.getByText(
        'u/growth_marketer: Reddit refused the sign-in: the account needs to be re-authenticated.',
      ),
    ).toBeTruthy();
    expect(refresh.calls).toHaveLength(1);
    await waitFor(() => expect(screen.getByTestId('account-loads').textContent).toBe('3'));
  });

  it('says when an admin action failed', async () => {
    mockMonthly();
    mockEndpoint(statisticsEndpoints.resetDailyLimits, errorReply(500, 'Internal server error', 'internal'));
    mockEndpoint(statisticsEndpoints.refreshAllTokens, errorReply(503, 'Reddit is down', 'unavailable'));
    renderAs(['ADMIN'], <MonthlyStatisticsPanel projectId={PROJECT_ID} />);
    await user.click(await screen.findByRole('button', { name: 'Reset Daily Limits' }));
    expect(await screen.findByText('Failed to reset daily limits')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Refresh All Tokens' }));
    expect(await screen.findByText('Failed to refresh tokens')).toBeTruthy();
    expect(sentRequests().filter((r) => r.method === 'POST')).toHaveLength(2);
  });
});
