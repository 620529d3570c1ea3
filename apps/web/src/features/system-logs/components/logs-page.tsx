import { useState, type FormEvent } from 'react';
import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Container,
  Group,
  Loader,
  NativeSelect,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import {
  LOG_LEVELS,
  LOG_PAGE_SIZE,
  LOG_SEARCH_COUNT_CAP,
  systemLogsCsvFileName,
  type TLogLevel,
  type TLogStats,
} from '@threadreach/contract';
import { errorMessage } from '../../../lib/api-error';
import { useFileExport } from '../../../lib/use-file-export';
import { AdminPageHeading, ModeratorOnly } from '../../auth';
import { useSystemLogs } from '../hooks/use-system-logs';
import {
  DEFAULT_LOG_FILTERS,
  LEVEL_OPTIONS,
  LOGGER_OPTIONS,
  PERIOD_OPTIONS,
  RANGE_FORMAT,
  filterQueryOf,
  formatLogTime,
  queryOf,
  rangeError,
  type TLogFilters,
  type TRangeError,
} from '../log-filters';
import { exportSystemLogsCsv } from '../api/system-logs.api';

export const LOGS_EMPTY_TEXT = 'No logs found for the selected criteria.';
export const LOGS_EXPORT_ERROR = 'Failed to export logs';

const LEVEL_COLORS: Record<TLogLevel, string> = {
  DEBUG: 'gray',
  INFO: 'blue',
  WARNING: 'yellow',
  ERROR: 'red',
  CRITICAL: 'grape',
};

/** A count as the server gave it: once a search stopped counting, every figure is "at least". */
function countText(n: number, capped: boolean): string {
  return capped ? `${n}+` : String(n);
}

/**
 * Total is the lines every filter matches, as the pages and 'No logs found' go by. The counts per level
 * ignore the level filter (decision 020), so under one the bar also says how many lines all levels hold.
 */
function StatsBar({
  stats,
  total,
  level,
  capped,
}: {
  stats: TLogStats;
  total: number;
  level: TLogLevel | null;
  capped: boolean;
}) {
  return (
    <Group gap="xs" aria-label="Log statistics">
      <Badge variant="outline" color="dark" size="lg">
        Total: {countText(total, capped)}
      </Badge>
      {level && (
        <Badge variant="outline" color="gray" size="lg">
          All levels: {countText(stats.total, capped)}
        </Badge>
      )}
      {LOG_LEVELS.map((each) => (
        <Badge key={each} color={LEVEL_COLORS[each]} variant="light" size="lg">
          {each}: {countText(stats[each], capped)}
        </Badge>
      ))}
      {level && (
        <Text size="sm" c="dimmed">
          Total counts the {level} lines only; the counts per level cover every level.
        </Text>
      )}
      {capped && (
        <Text size="sm" c="dimmed">
          The search matched more than {LOG_SEARCH_COUNT_CAP} lines; counting stopped there.
        </Text>
      )}
    </Group>
  );
}

/** "of 1000+" while a capped search is paged, "of 1300+" once the pages pass what was counted. */
function pageTotalText(total: number, capped: boolean, shownTo: number): string {
  return capped ? `${Math.max(total, shownTo)}+` : String(total);
}

function SystemLogs() {
  const [draft, setDraft] = useState<TLogFilters>(DEFAULT_LOG_FILTERS);
  const [applied, setApplied] = useState<TLogFilters>(DEFAULT_LOG_FILTERS);
  const [offset, setOffset] = useState(0);
  const [autoRefresh, setAutoRefresh] = useState(false);
  const [invalidRange, setInvalidRange] = useState<TRangeError | null>(null);
  // Where the first page's window ended: the pages after it keep to it, so lines logged meanwhile do not
  // push rows already shown onto the next page. Auto-refresh follows the newest lines instead.
  const [asOf, setAsOf] = useState<string | null>(null);
  const pinned = autoRefresh ? null : asOf;
  const query = { ...queryOf(applied, offset), ...(pinned ? { as_of: pinned } : {}) };
  const logs = useSystemLogs(query, autoRefresh);

  // The message stands under the first field at fault; any other is marked too.
  const rangeFieldError = (field: TRangeError['fields'][number]) => {
    if (!invalidRange?.fields.includes(field)) return undefined;
    return invalidRange.fields[0] === field ? invalidRange.message : true;
  };
  const set = <K extends keyof TLogFilters>(key: K, value: TLogFilters[K]) =>
    setDraft((d) => ({ ...d, [key]: value }));

  const apply = (event?: FormEvent) => {
    event?.preventDefault();
    const problem = rangeError(draft);
    setInvalidRange(problem);
    if (problem) return;
    // The same filters on the first page: the key does not change, so ask again explicitly.
    if (offset === 0 && JSON.stringify(queryOf(draft, 0)) === JSON.stringify(query)) void logs.refetch();
    setApplied(draft);
    setOffset(0);
    setAsOf(null);
  };
  // The newest lines as of now, on the same page.
  const refresh = () => {
    if (pinned) setAsOf(null);
    else void logs.refetch();
  };
  const turnPage = (to: number) => {
    if (!asOf && logs.data) setAsOf(logs.data.as_of);
    setOffset(Math.max(0, to));
  };

  const rows = logs.data?.logs ?? [];
  const limit = LOG_PAGE_SIZE;
  const { exporting, received, run: runExport } = useFileExport(LOGS_EXPORT_ERROR);
  // Every line the applied filters match, not only this page: fetched with the token, then saved. It
  // keeps to the window of the answer shown, so the file holds the lines on screen and the pages after
  // them, not those of a later "last 10 minutes".
  const shownAsOf = logs.isPlaceholderData ? undefined : logs.data?.as_of;
  const exportCsv = () =>
    runExport(async (onProgress) => {
      const shown = { ...filterQueryOf(applied), ...(shownAsOf ? { as_of: shownAsOf } : {}) };
      const content = await exportSystemLogsCsv(shown, onProgress);
      return { content, fileName: systemLogsCsvFileName(Date.now()) };
    });

  return (
    <Container size="xl" py="xl">
      <Stack>
        <AdminPageHeading title="System Logs" />

        <Paper withBorder p="md" component="form" onSubmit={apply} aria-label="Log filters">
          {/* Aligned at the top: a range field's message below it must not lift it out of the row. */}
          <Group align="flex-start" wrap="wrap">
            <NativeSelect
              label="Level"
              data={LEVEL_OPTIONS}
              value={draft.level}
              onChange={(e) => set('level', e.currentTarget.value as TLogFilters['level'])}
            />
            <NativeSelect
              label="Logger"
              data={LOGGER_OPTIONS}
              value={draft.logger}
              onChange={(e) => set('logger', e.currentTarget.value as TLogFilters['logger'])}
            />
            <NativeSelect
              label="Period"
              data={PERIOD_OPTIONS}
              value={draft.period}
              onChange={(e) => set('period', e.currentTarget.value as TLogFilters['period'])}
            />
            {draft.period === 'custom' && (
              <>
                <TextInput
                  label="From"
                  placeholder={RANGE_FORMAT}
                  value={draft.from}
                  error={rangeFieldError('from')}
                  onChange={(e) => set('from', e.currentTarget.value)}
                />
                <TextInput
                  label="To"
                  placeholder={RANGE_FORMAT}
                  value={draft.to}
                  error={rangeFieldError('to')}
                  onChange={(e) => set('to', e.currentTarget.value)}
                />
              </>
            )}
            <TextInput
              label="Search"
              placeholder="Search messages (Enter applies)"
              value={draft.search}
              onChange={(e) => set('search', e.currentTarget.value)}
              style={{ flex: 1, minWidth: 220 }}
            />
            <Button type="submit" mt={25}>
              Apply Filters
            </Button>
          </Group>
        </Paper>

        <Group justify="space-between">
          <Group>
            <Button variant="default" onClick={refresh} loading={logs.isFetching}>
              Refresh
            </Button>
            <Checkbox
              label="Auto-refresh (5s)"
              checked={autoRefresh}
              onChange={(e) => setAutoRefresh(e.currentTarget.checked)}
            />
          </Group>
          <Group gap="sm">
            {received && (
              <Text size="sm" c="dimmed" role="status">
                {received}
              </Text>
            )}
            <Button
              variant="default"
              onClick={() => void exportCsv()}
              loading={exporting}
              // Until the applied filters' answer comes, the rows shown are the last filters'.
              disabled={rows.length === 0 || !shownAsOf}
            >
              Export CSV
            </Button>
          </Group>
        </Group>

        {logs.data && (
          <StatsBar
            stats={logs.data.stats}
            total={logs.data.total}
            level={applied.level || null}
            capped={logs.data.counts_capped}
          />
        )}

        {/* A range refused before it was sent says so by its field; the last answer's error would
            stand beside it about filters no longer on screen. */}
        {logs.isError && !invalidRange && (
          <Alert color="red" role="alert">
            {`Failed to fetch logs: ${errorMessage(logs.error, 'Unknown error')}`}
          </Alert>
        )}
        {logs.isPending ? (
          <Loader aria-label="Loading logs" />
        ) : rows.length === 0 ? (
          !logs.isError && <Text c="dimmed">{LOGS_EMPTY_TEXT}</Text>
        ) : (
          // On a narrow screen the table scrolls sideways rather than squeezing the message to a sliver.
          <Table.ScrollContainer minWidth={720}>
            <Table striped highlightOnHover aria-label="System logs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Time</Table.Th>
                  <Table.Th>Level</Table.Th>
                  <Table.Th>Logger</Table.Th>
                  <Table.Th>Message</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((log) => (
                  <Table.Tr key={log.id}>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatLogTime(log.timestamp)}</Table.Td>
                    <Table.Td>
                      {/* A badge clips its text to fit; beside a long message the table would let it. */}
                      <Badge color={LEVEL_COLORS[log.level]} variant="light" miw="max-content">
                        {log.level}
                      </Badge>
                    </Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{log.logger_name}</Table.Td>
                    <Table.Td style={{ fontFamily: 'monospace', wordBreak: 'break-word' }}>
                      {log.message}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}

        <Group justify="space-between">
          <Text size="sm" c="dimmed">
            {logs.data && rows.length > 0
              ? `Showing ${offset + 1}-${offset + rows.length} of ${pageTotalText(logs.data.total, logs.data.counts_capped, offset + rows.length)}`
              : ''}
          </Text>
          <Group>
            <Button variant="default" disabled={offset === 0} onClick={() => turnPage(offset - limit)}>
              Previous
            </Button>
            {/* A full page means there may be more. */}
            <Button
              variant="default"
              disabled={rows.length < limit || logs.isPlaceholderData}
              onClick={() => turnPage(offset + limit)}
            >
              Next
            </Button>
          </Group>
        </Group>
      </Stack>
    </Container>
  );
}

/** /logs: the system log viewer, for moderators and admins. */
export function LogsPage() {
  return (
    <ModeratorOnly>
      <SystemLogs />
    </ModeratorOnly>
  );
}
