import { useMemo, useState, type FormEvent } from 'react';
import {
  Alert,
  Button,
  Container,
  Group,
  Loader,
  NativeSelect,
  Pagination,
  Paper,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import {
  ZDailyStatisticsQuery,
  groupByDay,
  plural,
  statsFilterParam,
  type TDailyStatisticsQuery,
  type TDailyStatisticsResponse,
  type TStatsGroup,
} from '@threadreach/contract';
import { errorMessage } from '../../../lib/api-error';
import { AdminPageHeading, ModeratorOnly } from '../../auth';
import { hasColumnFilters, type TColumnFilters } from '../column-filters';
import { useAllProjectsStatistics } from '../hooks/use-statistics';
import { ACCOUNTS_COLUMN, DAY_COLUMNS, PROJECT_COLUMNS } from '../stats-columns';
import { QUICK_RANGES, currentWeek } from '../stats-dates';
import { FilterableTable } from './filterable-table';
import { LazyStatisticsChart } from './lazy-statistics-chart';
import { DayDetails, ProjectDetails } from './stats-details';
import { SummaryCards } from './summary-cards';

export const STATS_EMPTY_TEXT = 'No data available for the selected filters';
/** Rows a page of the table: projects, or days. */
export const STATS_PAGE_SIZE = 100;

const GROUP_OPTIONS = [
  { value: 'project', label: 'Project' },
  { value: 'day', label: 'Day' },
];

interface TControls {
  start: string;
  end: string;
  group: TStatsGroup;
}

const queryOf = (c: TControls): TDailyStatisticsQuery => ({
  start_date: c.start,
  end_date: c.end,
  group_by: c.group,
});

function StatsTable({
  data,
  filters,
  onFilter,
}: {
  data: TDailyStatisticsResponse;
  filters: TColumnFilters;
  onFilter: (key: string, values: string[]) => void;
}) {
  if (data.group_by === 'project') {
    return (
      <FilterableTable
        label="Statistics by project"
        values={data.filter_values}
        rows={data.data}
        columns={PROJECT_COLUMNS}
        filters={filters}
        onFilter={onFilter}
        rowKey={(r) => r.project_id}
        rowName={(r) => r.project_name}
        details={(r) => <ProjectDetails project={r} />}
      />
    );
  }
  return (
    <FilterableTable
      label="Statistics by day"
      values={data.filter_values}
      rows={groupByDay(data.data)}
      columns={DAY_COLUMNS}
      filters={filters}
      onFilter={onFilter}
      rowKey={(r) => r.date}
      rowName={(r) => r.date}
      details={(r) => <DayDetails date={r.date} projects={r.projects} />}
    />
  );
}

/** Which rows of how many the page shows, and the way to the others. */
function StatsPager({
  data,
  onOffset,
}: {
  data: TDailyStatisticsResponse;
  onOffset: (offset: number) => void;
}) {
  if (data.total === 0) return <Text c="dimmed">{STATS_EMPTY_TEXT}</Text>;
  const pages = Math.ceil(data.total / data.limit);
  const what = plural(data.total, data.group_by === 'project' ? 'project' : 'day');
  const first = Math.min(data.offset + 1, data.total);
  const last = Math.min(data.offset + data.limit, data.total);
  return (
    <Group justify="space-between">
      <Text size="sm" c="dimmed">{`${first}–${last} of ${what}`}</Text>
      {pages > 1 && (
        <nav aria-label="Statistics pages">
          <Pagination
            total={pages}
            value={Math.floor(data.offset / data.limit) + 1}
            onChange={(page) => onOffset((page - 1) * data.limit)}
            size="sm"
          />
        </nav>
      )}
    </Group>
  );
}

function AllProjectsStatistics() {
  const now = useMemo(() => new Date(), []);
  const [draft, setDraft] = useState<TControls>(() => ({ ...currentWeek(now), group: 'project' }));
  const [applied, setApplied] = useState<TControls>(draft);
  const [filters, setFilters] = useState<TColumnFilters>({});
  const [offset, setOffset] = useState(0);
  const [accountsPrefiltered, setAccountsPrefiltered] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const stats = useAllProjectsStatistics({
    ...queryOf(applied),
    filter: statsFilterParam(filters),
    limit: STATS_PAGE_SIZE,
    offset,
  });
  const data = stats.data;

  // The first projects to arrive hide those without a connected account (spec section 2, /stats).
  if (!accountsPrefiltered && data?.group_by === 'project' && !stats.isPlaceholderData) {
    setAccountsPrefiltered(true);
    const values = (data.filter_values[ACCOUNTS_COLUMN.key] ?? []).filter((v) => v !== '0');
    if (values.length > 0) setFilters((f) => ({ ...f, [ACCOUNTS_COLUMN.key]: values }));
  }

  const run = (next: TControls) => {
    // The contract's own rules (real dates, in order, at most 366 days) before asking the server.
    const checked = ZDailyStatisticsQuery.safeParse(queryOf(next));
    setProblem(checked.success ? null : (checked.error.issues[0]?.message ?? null));
    if (!checked.success) return;
    // Each grouping has its own columns: their filters do not carry over.
    if (next.group !== applied.group) setFilters({});
    if (JSON.stringify(next) === JSON.stringify(applied) && offset === 0) void stats.refetch();
    setApplied(next);
    setOffset(0);
  };
  const apply = (event?: FormEvent) => {
    event?.preventDefault();
    run(draft);
  };
  const quick = (range: { start: string; end: string }) => {
    const next = { ...draft, ...range };
    setDraft(next);
    run(next);
  };
  const setFilter = (key: string, values: string[]) => {
    setFilters((f) => ({ ...f, [key]: values }));
    setOffset(0);
  };

  return (
    <Container size="xl" py="xl">
      <Stack>
        <AdminPageHeading title="All Projects Statistics" />

        <Paper withBorder p="md" component="form" onSubmit={apply} aria-label="Statistics filters">
          <Group align="flex-end" wrap="wrap">
            <TextInput
              type="date"
              label="Start Date"
              value={draft.start}
              onChange={(e) => {
                const value = e.currentTarget.value;
                setDraft((d) => ({ ...d, start: value }));
              }}
            />
            <TextInput
              type="date"
              label="End Date"
              value={draft.end}
              onChange={(e) => {
                const value = e.currentTarget.value;
                setDraft((d) => ({ ...d, end: value }));
              }}
            />
            <NativeSelect
              label="Group By"
              data={GROUP_OPTIONS}
              value={draft.group}
              onChange={(e) => {
                const value = e.currentTarget.value as TStatsGroup;
                setDraft((d) => ({ ...d, group: value }));
              }}
            />
            <Button type="submit" disabled={!draft.start || !draft.end}>
              Apply Filters
            </Button>
          </Group>
          <Group mt="sm" gap="xs">
            {QUICK_RANGES.map((q) => (
              <Button key={q.label} size="xs" variant="light" onClick={() => quick(q.range(new Date()))}>
                {q.label}
              </Button>
            ))}
          </Group>
          {problem && (
            <Text c="red" size="sm" mt="xs" role="alert">
              {problem}
            </Text>
          )}
          <Text size="xs" c="dimmed" mt="xs">
            Days are counted in UTC.
          </Text>
        </Paper>

        {stats.isError && (
          <Alert color="red" role="alert">
            {`Failed to fetch statistics: ${errorMessage(stats.error, 'Unknown error')}`}
          </Alert>
        )}

        {stats.isPending ? (
          <Loader aria-label="Loading statistics" />
        ) : (
          data && (
            <>
              <SummaryCards
                label="Summary"
                cards={[
                  { label: 'Projects', value: data.summary.total_projects },
                  { label: 'Accounts', value: data.summary.total_accounts },
                  { label: 'Posts Found', value: data.summary.total_posts_found },
                  { label: 'DMs Generated', value: data.summary.total_dms_generated },
                  { label: 'DMs Sent', value: data.summary.sent },
                ]}
              />
              <Paper withBorder p="md">
                <Title order={2} size="h5" mb="sm">
                  DMs sent, replies and leads per day
                </Title>
                <LazyStatisticsChart
                  series={data.series}
                  granularity="day"
                  label="DMs sent, replies and leads per day"
                />
              </Paper>
              <Group justify="space-between">
                <Text size="sm" c="dimmed">
                  {`${data.start_date} to ${data.end_date}, by ${data.group_by}`}
                </Text>
                <Button
                  variant="default"
                  size="xs"
                  disabled={!hasColumnFilters(filters)}
                  onClick={() => {
                    setFilters({});
                    setOffset(0);
                  }}
                >
                  Clear column filters
                </Button>
              </Group>
              <StatsTable data={data} filters={filters} onFilter={setFilter} />
              <StatsPager data={data} onOffset={setOffset} />
            </>
          )
        )}
      </Stack>
    </Container>
  );
}

/** /stats: every project's figures, for moderators and admins. */
export function StatsPage() {
  return (
    <ModeratorOnly>
      <AllProjectsStatistics />
    </ModeratorOnly>
  );
}
