import { Badge, Group, Paper, Progress, SimpleGrid, Stack, Text } from '@mantine/core';
import { successRateColor, type TEfficiencyStats, type TProxyHealthStatus } from '@threadreach/contract';
import { NO_RATE, errorRateBand, formatPercent, proxyHealth } from '../credential-format';

/**
 * Success-rate bar: green at 95 or more, yellow at 85, orange at 70, else red. With no requests
 * (`requests` 0) there is no rate: '—' and an empty grey bar.
 */
export function SuccessRateBar({ percent, requests }: { percent: number; requests: number }) {
  const measured = requests > 0;
  const color = measured ? successRateColor(percent) : 'gray';
  const value = measured ? Math.min(100, Math.max(0, percent)) : 0;
  return (
    <Stack gap={4}>
      <Group justify="space-between">
        <Text size="sm">Success Rate</Text>
        <Text size="sm" fw={600} c={measured ? color : 'dimmed'} data-testid="success-rate">
          {measured ? formatPercent(percent) : NO_RATE}
        </Text>
      </Group>
      <Progress value={value} color={color} size="lg" aria-label="Success rate" data-color={color} />
    </Stack>
  );
}

/** Error-rate badge: low under 5, medium under 15, high under 30, else critical; '—' with no requests. */
export function ErrorRateBadge({ percent, requests }: { percent: number; requests: number }) {
  const { level, color } = errorRateBand(percent);
  return (
    <Group gap="xs">
      <Text size="sm">Error Rate</Text>
      {requests > 0 ? (
        <Badge color={color} variant="light" tt="none" data-level={level}>
          {`${formatPercent(percent)} ${level}`}
        </Badge>
      ) : (
        <Badge color="gray" variant="light" tt="none" data-level="none">
          {NO_RATE}
        </Badge>
      )}
    </Group>
  );
}

/** healthy green, degraded yellow, anything else red; 'Unknown' when there is no status. */
export function ProxyHealthBadge({ status }: { status: TProxyHealthStatus | null | undefined }) {
  const { label, color } = proxyHealth(status);
  return (
    <Badge color={color} variant="light" tt="none" data-color={color}>
      {label}
    </Badge>
  );
}

const COUNTERS: { key: keyof TEfficiencyStats; label: string }[] = [
  { key: 'total_requests', label: 'Total Requests' },
  { key: 'success_count', label: 'Successes' },
  { key: 'failure_count', label: 'Failures' },
  { key: 'active_clients', label: 'Active Clients' },
  { key: 'total_clients_created', label: 'Total Clients Created' },
  { key: 'total_proxy_requests', label: 'Proxy Requests' },
];

/** The details dialog's efficiency metrics: success bar, error badge and six counters. */
export function EfficiencyMetrics({ stats }: { stats: TEfficiencyStats }) {
  return (
    <Stack gap="sm">
      <SuccessRateBar percent={stats.success_rate_percent} requests={stats.total_requests} />
      <ErrorRateBadge percent={stats.error_rate_percent} requests={stats.total_requests} />
      <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="xs">
        {COUNTERS.map(({ key, label }) => (
          <Paper key={key} withBorder p="xs" radius="sm" role="group" aria-label={label}>
            <Text size="xs" c="dimmed">
              {label}
            </Text>
            <Text fw={600}>{String(stats[key] ?? 0)}</Text>
          </Paper>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
