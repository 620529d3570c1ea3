import { useMemo, useState } from 'react';
import {
  Alert,
  Button,
  Group,
  List,
  Loader,
  NativeSelect,
  Paper,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import {
  ZDateRangeQuery,
  type TDateRangeQuery,
  type TDateRangeStatisticsResponse,
  type TMonthlyStatisticsResponse,
  type TRefreshAllTokensResponse,
} from '@threadreach/contract';
import { errorMessage } from '../../../lib/api-error';
import { useAuth } from '../../auth';
import {
  useDateRangeStatistics,
  useMonthlyStatistics,
  useRefreshAllTokens,
  useResetDailyLimits,
} from '../hooks/use-statistics';
import { MONTH_NAMES, currentMonth, formatDay, yearChoices } from '../stats-dates';
import { LazyStatisticsChart } from './lazy-statistics-chart';
import { SummaryCards, type TSummaryCard } from './summary-cards';

export const SELECT_YEAR_TEXT = 'Please select a year to load statistics.';
export const SELECT_DATES_TEXT = 'Please select both start and end dates.';

const rate = (value: number | null) => (value === null ? '—' : `${value}%`);

function monthlyCards(data: TMonthlyStatisticsResponse): TSummaryCard[] {
  const s = data.summary;
  return [
    { label: 'Messages Sent', value: s.total_messages_sent },
    { label: 'Messages Generated', value: s.total_messages_generated },
    { label: 'Posts Found', value: s.total_posts_found },
    { label: 'Comments Found', value: s.total_comments_found },
    { label: 'Searches Performed', value: s.total_searches_performed },
    {
      label: 'Reply Rate',
      value: rate(s.reply_rate),
      hint: `${s.total_replies} of ${s.total_messages_sent} sent DMs answered`,
    },
  ];
}

function rangeCards(data: TDateRangeStatisticsResponse): TSummaryCard[] {
  const s = data.statistics;
  return [
    { label: 'Messages Sent', value: s.messages_sent },
    { label: 'Messages Generated', value: s.messages_generated },
    { label: 'Posts Found', value: s.posts_found },
    { label: 'Comments Found', value: s.comments_found },
    { label: 'Searches Performed', value: s.searches_performed },
    { label: 'Days', value: data.date_range_days },
    { label: 'Avg Messages / Day', value: s.average_messages_per_day },
    {
      label: 'Success Rate',
      value: rate(s.success_rate),
      hint: `${s.messages_sent} sent, ${s.messages_failed} failed`,
    },
    {
      label: 'Reply Rate',
      value: rate(s.reply_rate),
      hint: `${s.replies} of ${s.messages_sent} sent DMs answered`,
    },
  ];
}

function FailedAlert({ text, error }: { text: string; error: unknown }) {
  return (
    <Alert color="red" role="alert" title={text}>
      {errorMessage(error, '')}
    </Alert>
  );
}

function RefreshResult({ result }: { result: TRefreshAllTokensResponse }) {
  const failed = result.accounts.filter((a) => !a.refreshed);
  return (
    <Alert color={failed.length ? 'yellow' : 'green'} role="status" title={result.message}>
      <Text size="sm">{`Refreshed: ${result.refreshed_accounts} · Failed: ${result.failed_accounts}`}</Text>
      {failed.length > 0 && (
        <List size="sm" mt={4}>
          {failed.map((a) => (
            <List.Item key={a.account_id}>{`u/${a.reddit_username}: ${a.error ?? 'failed'}`}</List.Item>
          ))}
        </List>
      )}
    </Alert>
  );
}

/** Reset Daily Limits and Refresh All Tokens on the project's accounts: admins only (spec section 6). */
function AdminActions({ projectId }: { projectId: string }) {
  const reset = useResetDailyLimits(projectId);
  const refresh = useRefreshAllTokens(projectId);
  return (
    <Stack gap="xs">
      <Group>
        <Button variant="light" color="orange" loading={reset.isPending} onClick={() => reset.mutate()}>
          Reset Daily Limits
        </Button>
        <Button variant="light" loading={refresh.isPending} onClick={() => refresh.mutate()}>
          Refresh All Tokens
        </Button>
      </Group>
      {reset.isError && <FailedAlert text="Failed to reset daily limits" error={reset.error} />}
      {reset.isSuccess && (
        <Alert color="green" role="status">
          {reset.data.message}
        </Alert>
      )}
      {refresh.isError && <FailedAlert text="Failed to refresh tokens" error={refresh.error} />}
      {refresh.isSuccess && <RefreshResult result={refresh.data} />}
    </Stack>
  );
}

/** A project's figures for a month or a year, or for a custom range of days, with a chart. */
export function MonthlyStatisticsPanel({ projectId }: { projectId: string }) {
  const { isAdmin } = useAuth();
  const now = useMemo(() => new Date(), []);
  // The figures count UTC days, so this month is the UTC one.
  const [year, setYear] = useState(() => String(currentMonth(now).year));
  const [month, setMonth] = useState(() => String(currentMonth(now).month));
  const [showCalendar, setShowCalendar] = useState(false);
  const [draft, setDraft] = useState({ start: '', end: '' });
  const [range, setRange] = useState<TDateRangeQuery | null>(null);
  const [rangeProblem, setRangeProblem] = useState<string | null>(null);

  const monthlyQuery = year ? { year: Number(year), ...(month ? { month: Number(month) } : {}) } : null;
  const monthly = useMonthlyStatistics(projectId, monthlyQuery);
  const ranged = useDateRangeStatistics(projectId, range);

  const loadRange = () => {
    if (!draft.start || !draft.end) {
      setRangeProblem(SELECT_DATES_TEXT);
      return;
    }
    const query = { start_date: draft.start, end_date: draft.end };
    const checked = ZDateRangeQuery.safeParse(query);
    setRangeProblem(checked.success ? null : (checked.error.issues[0]?.message ?? null));
    if (checked.success) setRange(query);
  };
  const toggleCalendar = () => {
    // Hiding the calendar goes back to the month, without a complaint about its hidden inputs.
    if (showCalendar) {
      setRange(null);
      setRangeProblem(null);
    }
    setShowCalendar(!showCalendar);
  };
  // Choosing a year or a month shows that month's figures instead of a custom range.
  const chooseYear = (value: string) => {
    setYear(value);
    setRange(null);
  };
  const chooseMonth = (value: string) => {
    setMonth(value);
    setRange(null);
  };

  const monthName = month ? `${MONTH_NAMES[Number(month) - 1]} ` : 'All of ';
  let body;
  if (range) {
    body = ranged.isError ? (
      <FailedAlert text="Failed to load date range statistics" error={ranged.error} />
    ) : !ranged.data ? (
      <Loader size="sm" aria-label="Loading statistics" />
    ) : (
      <>
        <Text size="sm" c="dimmed">
          {`${formatDay(ranged.data.start_date)} – ${formatDay(ranged.data.end_date)}`}
        </Text>
        <SummaryCards label="Date range statistics" cards={rangeCards(ranged.data)} />
        <LazyStatisticsChart
          series={ranged.data.series}
          granularity="day"
          label="DMs sent, replies and leads over the range"
        />
      </>
    );
  } else if (!monthlyQuery) {
    body = <Text c="dimmed">{SELECT_YEAR_TEXT}</Text>;
  } else {
    body = monthly.isError ? (
      <FailedAlert text="Failed to load monthly statistics" error={monthly.error} />
    ) : !monthly.data ? (
      <Loader size="sm" aria-label="Loading statistics" />
    ) : (
      <>
        <Text size="sm" c="dimmed">{`${monthName}${year}`}</Text>
        <SummaryCards label="Monthly statistics" cards={monthlyCards(monthly.data)} />
        <LazyStatisticsChart
          series={monthly.data.series}
          granularity={monthly.data.granularity}
          label={`DMs sent, replies and leads ${month ? 'per day' : 'per month'}`}
        />
      </>
    );
  }

  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-label="Monthly statistics panel">
      <Stack>
        <Group justify="space-between" align="flex-start">
          <Title order={2} size="h4">
            Monthly Statistics
          </Title>
          {isAdmin && <AdminActions projectId={projectId} />}
        </Group>
        <Group align="flex-end" wrap="wrap">
          <NativeSelect
            label="Year"
            value={year}
            onChange={(e) => chooseYear(e.currentTarget.value)}
            data={[
              { value: '', label: 'Select year' },
              ...yearChoices(now).map((y) => ({ value: String(y), label: String(y) })),
            ]}
          />
          <NativeSelect
            label="Month"
            value={month}
            onChange={(e) => chooseMonth(e.currentTarget.value)}
            data={[
              { value: '', label: 'All Months' },
              ...MONTH_NAMES.map((name, i) => ({ value: String(i + 1), label: name })),
            ]}
          />
          <Button variant="default" onClick={toggleCalendar} aria-pressed={showCalendar}>
            {showCalendar ? 'Hide Calendar' : 'Show Calendar'}
          </Button>
        </Group>
        {showCalendar && (
          <Group align="flex-end" wrap="wrap" aria-label="Custom date range" role="group">
            <TextInput
              type="date"
              label="Range Start"
              value={draft.start}
              onChange={(e) => {
                const value = e.currentTarget.value;
                setDraft((d) => ({ ...d, start: value }));
              }}
            />
            <TextInput
              type="date"
              label="Range End"
              value={draft.end}
              onChange={(e) => {
                const value = e.currentTarget.value;
                setDraft((d) => ({ ...d, end: value }));
              }}
            />
            <Button onClick={loadRange}>Load Range</Button>
            {range && (
              <Button variant="subtle" onClick={() => setRange(null)}>
                Back to Month
              </Button>
            )}
          </Group>
        )}
        {rangeProblem && (
          <Text c="red" size="sm" role="alert">
            {rangeProblem}
          </Text>
        )}
        {body}
      </Stack>
    </Paper>
  );
}
