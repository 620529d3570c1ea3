import { useState, type ReactNode } from 'react';
import {
  Alert,
  Button,
  Code,
  Group,
  Loader,
  Pagination,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
} from '@mantine/core';
import type { TProxyDetail, TProxyPoolStats } from '@threadreach/contract';
import { formatRate, formatTimestamp, isFailureRateHigh, shortId } from '../credential-format';
import { CREDENTIAL_MESSAGES, failureMessage } from '../credential-messages';
import { PROXY_DETAILS_PAGE_SIZE, useProxyDetails, useProxyPoolStats } from '../hooks/use-credentials';
import { ProxyHealthBadge } from './credential-metrics';

export const NO_PROXY_DETAILS_TEXT = 'No proxy details available';
export const REPLACEMENTS_WARNING_TEXT = 'Proxies were replaced in the last 24 hours';

interface TStatCardProps {
  label: string;
  value: ReactNode;
  color?: string;
  note?: string;
}

function StatCard({ label, value, color, note }: TStatCardProps) {
  return (
    <Paper withBorder p="sm" radius="md" role="group" aria-label={label} data-color={color ?? 'default'}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="xl" fw={700} c={color}>
        {value}
      </Text>
      {note && (
        <Text size="xs" c={color}>
          {note}
        </Text>
      )}
    </Paper>
  );
}

/** The pool's summary cards; replacements in the last 24 h warn, failure rates above 5% show red. */
export function ProxyPoolSummary({ stats }: { stats: TProxyPoolStats }) {
  const replaced = stats.total_replacements_24h > 0;
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }} spacing="sm">
      <StatCard label="Total Proxies" value={stats.total_proxies} />
      <StatCard label="Healthy" value={stats.healthy_proxies} color="green" />
      <StatCard label="Degraded" value={stats.degraded_proxies} color="yellow" />
      <StatCard label="Failed" value={stats.failed_proxies} color="red" />
      <StatCard label="Total Requests" value={stats.total_requests} />
      <StatCard
        label="Replacements (24h)"
        value={replaced ? `⚠ ${stats.total_replacements_24h}` : stats.total_replacements_24h}
        color={replaced ? 'orange' : undefined}
        note={replaced ? REPLACEMENTS_WARNING_TEXT : undefined}
      />
      <StatCard label="Active Failures" value={stats.current_active_failures} />
      <StatCard label="Last Replacement" value={formatTimestamp(stats.last_replacement_time)} />
      <StatCard
        label="Avg Failure Rate"
        value={formatRate(stats.avg_failure_rate * 100, stats.total_requests)}
        color={isFailureRateHigh(stats.avg_failure_rate) ? 'red' : undefined}
      />
    </SimpleGrid>
  );
}

function ProxyDetailsTable({ items }: { items: TProxyDetail[] }) {
  if (items.length === 0) return <Text c="dimmed">{NO_PROXY_DETAILS_TEXT}</Text>;
  return (
    <Table.ScrollContainer minWidth={800}>
      <Table striped aria-label="Proxy details">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Credential ID</Table.Th>
            <Table.Th>Proxy</Table.Th>
            <Table.Th>Health</Table.Th>
            <Table.Th>Success / Fail</Table.Th>
            <Table.Th>Last Check</Table.Th>
            <Table.Th>Last Error</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((p) => (
            <Table.Tr key={p.credential_id}>
              <Table.Td ff="monospace" title={p.credential_id}>
                {shortId(p.credential_id)}
              </Table.Td>
              <Table.Td>
                <Code>{p.proxy_masked}</Code>
              </Table.Td>
              <Table.Td>
                <ProxyHealthBadge status={p.health_status} />
              </Table.Td>
              <Table.Td>{`${p.success_count} / ${p.failure_count}`}</Table.Td>
              <Table.Td>{formatTimestamp(p.last_health_check)}</Table.Td>
              <Table.Td>
                <Text
                  size="sm"
                  c={p.last_error ? 'red' : 'dimmed'}
                  lineClamp={2}
                  title={p.last_error ?? undefined}
                >
                  {p.last_error ?? '—'}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** The Proxy Pool tab: summary cards and the paginated table of proxies per credential. */
export function ProxyPoolTab() {
  const [page, setPage] = useState(1);
  const stats = useProxyPoolStats();
  const details = useProxyDetails(page);
  const total = details.data?.total ?? 0;
  const pageCount = Math.max(1, Math.ceil(total / PROXY_DETAILS_PAGE_SIZE));

  const refresh = () => {
    void stats.refetch();
    void details.refetch();
  };

  return (
    <Stack gap="md">
      <Group justify="flex-end">
        <Button variant="default" onClick={refresh} loading={stats.isFetching || details.isFetching}>
          Refresh
        </Button>
      </Group>
      {stats.isPending ? (
        <Loader aria-label="Loading proxy pool stats" />
      ) : stats.isError ? (
        <Alert color="red" role="alert">
          {failureMessage(CREDENTIAL_MESSAGES.proxyPoolFailed, stats.error)}
        </Alert>
      ) : (
        <ProxyPoolSummary stats={stats.data} />
      )}
      {details.isPending ? (
        <Loader aria-label="Loading proxy details" />
      ) : details.isError ? (
        <Alert color="red" role="alert">
          {failureMessage(CREDENTIAL_MESSAGES.proxyPoolFailed, details.error)}
        </Alert>
      ) : (
        <ProxyDetailsTable items={details.data.items} />
      )}
      {pageCount > 1 && (
        <Group component="nav" aria-label="Proxy details pages">
          <Pagination total={pageCount} value={Math.min(page, pageCount)} onChange={setPage} />
        </Group>
      )}
    </Stack>
  );
}
