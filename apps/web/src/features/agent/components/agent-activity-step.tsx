import { useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  Center,
  Group,
  Loader,
  Pagination,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import type { TAgentLog, TAgentStatus } from '@threadreach/contract';
import stacked from '../../../components/ui/stacked-table.module.css';
import { errorMessage } from '../../../lib/api-error';
import { useAuth } from '../../auth';
import { LOG_TYPE_LABELS, when } from '../agent-format';
import {
  AGENT_LOGS_PAGE_SIZE,
  isAgentRunning,
  useAgentActivityLogs,
  useAgentStatus,
} from '../hooks/use-agent';
import classes from './agent-activity-step.module.css';
import { AgentAdminPanel } from './agent-admin-panel';
import { StopAgentButton } from './stop-agent-button';

function Figure({ label, value }: { label: string; value: string | number }) {
  return (
    <Paper withBorder p="sm" radius="md">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={700} aria-label={label}>
        {value}
      </Text>
    </Paper>
  );
}

function StatusOverview({ status }: { status: TAgentStatus }) {
  const active = isAgentRunning(status.settings);
  return (
    <Stack gap="xs" component="section" aria-label="Agent status">
      <Group gap="sm">
        <Badge size="lg" color={active ? 'green' : 'gray'} aria-label="Agent state">
          {active ? 'ACTIVE' : 'INACTIVE'}
        </Badge>
        {status.is_running && (
          <Group gap={4}>
            <Loader size="xs" aria-hidden />
            <Text size="sm">Running now</Text>
          </Group>
        )}
        <Text size="sm" c="dimmed">
          {status.mode === 'agent' ? 'AI Agent mode' : 'AI Assistant mode'}
          {status.mode === 'agent' && !status.learning_stage_completed ? ' · learning' : ''}
        </Text>
      </Group>
      {status.paused_reason && (
        <Alert color="orange" role="alert" title="The agent paused itself">
          {status.paused_reason}
        </Alert>
      )}
      <SimpleGrid cols={{ base: 2, md: 4 }} spacing="sm">
        <Figure label="Operations completed" value={status.operations_completed} />
        <Figure label="Errors" value={status.error_count} />
        <Figure label="Last activity" value={when(status.last_activity)} />
        <Figure label="Next run" value={active ? when(status.next_run_at) : '—'} />
      </SimpleGrid>
    </Stack>
  );
}

function DailySummary({ summary }: { summary: TAgentStatus['daily_summary'] }) {
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-label="Daily summary">
      <Stack gap="xs">
        <Title order={3}>Today ({summary.date})</Title>
        <Text size="sm">
          Sent: {summary.sent} · Replies: {summary.replies}
        </Text>
        {summary.messages.length > 0 && (
          // On a phone each message is a block of its cells; the list scrolls past 280 px, and what scrolls
          // is reachable from the keyboard.
          <Table.ScrollContainer
            minWidth={480}
            maxHeight={280}
            className={stacked.scroll}
            scrollAreaProps={{
              viewportProps: { tabIndex: 0, role: 'region', 'aria-label': "Today's messages" },
            }}
          >
            <Table striped className={stacked.table}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>To</Table.Th>
                  <Table.Th>From</Table.Th>
                  <Table.Th>Sent</Table.Th>
                  <Table.Th>Reply</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {summary.messages.map((m) => (
                  <Table.Tr key={m.dm_id}>
                    <Table.Td data-label="To">u/{m.recipient_username}</Table.Td>
                    <Table.Td data-label="From">
                      {m.account_username ? `u/${m.account_username}` : '—'}
                    </Table.Td>
                    <Table.Td data-label="Sent">{when(m.sent_at)}</Table.Td>
                    <Table.Td data-label="Reply">{m.replied_at ? when(m.replied_at) : '—'}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </Paper>
  );
}

function LogEntry({ log }: { log: TAgentLog }) {
  return (
    <Paper
      withBorder
      p="xs"
      radius="sm"
      component="li"
      aria-label={`${LOG_TYPE_LABELS[log.activity_type]} log`}
    >
      <div className={classes.entry}>
        <Badge
          size="sm"
          variant="light"
          color={!log.success || log.activity_type === 'error' ? 'red' : 'blue'}
          className={classes.badge}
        >
          {LOG_TYPE_LABELS[log.activity_type]}
        </Badge>
        <Text size="sm" className={classes.message}>
          {log.message}
        </Text>
        <Text size="xs" c="dimmed" className={classes.time}>
          {when(log.timestamp)}
        </Text>
      </div>
    </Paper>
  );
}

export interface TAgentActivityStepProps {
  projectId: string;
  /** Owners and admins may stop the agent; everyone else only reads. */
  readOnly: boolean;
  onBack: () => void;
}

/**
 * Step 5, Agent Activity Logs: the status overview, today's summary, the admin panel, and the recent
 * activity, all refreshed every 30 s and on Refresh Logs.
 */
export function AgentActivityStep({ projectId, readOnly, onBack }: TAgentActivityStepProps) {
  const { isAdmin } = useAuth();
  const [page, setPage] = useState(1);
  const status = useAgentStatus(projectId);
  const logs = useAgentActivityLogs(projectId, page);
  const refresh = () => {
    void status.refetch();
    void logs.refetch();
  };
  const total = logs.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / AGENT_LOGS_PAGE_SIZE));
  const running = status.data ? isAgentRunning(status.data.settings) : false;

  return (
    <Paper withBorder p="lg" radius="md">
      <Stack gap="md">
        <Group justify="space-between">
          <Title order={2}>Agent Activity Logs</Title>
          {running && <StopAgentButton projectId={projectId} readOnly={readOnly} variant="light" />}
        </Group>
        {status.isPending ? (
          <Center py="md">
            <Loader aria-label="Loading agent status" />
          </Center>
        ) : status.isError ? (
          <Alert color="red" role="alert">
            {errorMessage(status.error, 'Error loading agent status')}
          </Alert>
        ) : (
          <>
            <StatusOverview status={status.data} />
            <DailySummary summary={status.data.daily_summary} />
          </>
        )}
        {isAdmin && <AgentAdminPanel projectId={projectId} />}
        <Stack gap="xs" component="section" aria-label="Recent activity logs">
          <Title order={3}>Recent activity{logs.data ? ` (${total})` : ''}</Title>
          {logs.isPending ? (
            <Center py="md">
              <Loader aria-label="Loading activity logs" />
            </Center>
          ) : logs.isError ? (
            <Alert color="red" role="alert">
              {errorMessage(logs.error, 'Error loading activity logs')}
            </Alert>
          ) : logs.data.items.length === 0 ? (
            <Text size="sm" c="dimmed">
              No agent activity yet. In AI Agent mode, once learning is complete, the agent&apos;s searches,
              drafts and sends appear here.
            </Text>
          ) : (
            <Stack gap={6} component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
              {logs.data.items.map((log) => (
                <LogEntry key={log.id} log={log} />
              ))}
            </Stack>
          )}
          {pages > 1 && (
            <Group justify="center">
              <Pagination total={pages} value={Math.min(page, pages)} onChange={setPage} size="sm" />
            </Group>
          )}
        </Stack>
        <Group justify="space-between">
          <Button variant="default" onClick={onBack}>
            Back
          </Button>
          <Button
            variant="light"
            onClick={refresh}
            loading={(status.isFetching || logs.isFetching) && !status.isPending}
          >
            Refresh Logs
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
