import { Alert, Button, Group, List, Paper, Stack, Text, Title } from '@mantine/core';
import { plural, type TBehaviorLog, type TOperationResult } from '@threadreach/contract';
import { ApiError, errorMessage } from '../../../lib/api-error';
import { when } from '../agent-format';
import { useEditBehaviorLogs, useExecuteAgent } from '../hooks/use-agent';

const RESULT_LINES: [keyof TOperationResult, string][] = [
  ['searches_performed', 'Searches performed'],
  ['posts_found', 'Posts found'],
  ['comments_found', 'Comments found'],
  ['profiles_found', 'Profiles found'],
  ['messages_generated', 'Messages generated'],
  ['messages_queued', 'Messages queued'],
  // Paced sends go between runs: the run counts those since the one before.
  ['messages_sent', 'Messages sent since the last run'],
];

function OperationResult({ result }: { result: TOperationResult }) {
  return (
    <Paper withBorder p="sm" radius="md" aria-label="Operation result">
      <Stack gap={4}>
        <Text fw={600}>
          Run {result.status}
          {result.reason ? `: ${result.reason}` : ''}
        </Text>
        <List size="sm" spacing={0}>
          {RESULT_LINES.map(([key, label]) => (
            <List.Item key={key}>
              {label}: {String(result[key])}
            </List.Item>
          ))}
          <List.Item>Patterns applied: {result.patterns_applied ? 'yes' : 'no'}</List.Item>
        </List>
      </Stack>
    </Paper>
  );
}

const textOf = (value: unknown) => (typeof value === 'string' ? value : null);

function EditEntry({ log }: { log: TBehaviorLog }) {
  const after = textOf(log.metadata.after);
  return (
    <List.Item>
      <Text size="sm" span c="dimmed">
        {when(log.timestamp)}:
      </Text>{' '}
      <Text size="sm" span>
        {after ? after : 'edited a draft'}
      </Text>
    </List.Item>
  );
}

/** Admins' extra agent panel (spec section 6): Run Agent Now and the edits the agent learns from. */
export function AgentAdminPanel({ projectId }: { projectId: string }) {
  const execute = useExecuteAgent(projectId);
  const edits = useEditBehaviorLogs(projectId);
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-label="Admin agent tools">
      <Stack gap="sm">
        <Title order={3}>Admin agent tools</Title>
        <Group>
          <Button onClick={() => execute.mutate()} loading={execute.isPending}>
            Run Agent Now
          </Button>
        </Group>
        {execute.isError && (
          // 409: a run is already going (scheduled or started by someone else).
          <Alert
            color={execute.error instanceof ApiError && execute.error.status === 409 ? 'yellow' : 'red'}
            role="alert"
          >
            {errorMessage(execute.error, 'Error running the agent')}
          </Alert>
        )}
        {execute.data && <OperationResult result={execute.data.operation_result} />}
        <Text fw={600} size="sm">
          Edits learned from
          {edits.data ? `: ${plural(edits.data.total_found, 'saved edit')}` : ''}
        </Text>
        {edits.isError && (
          <Alert color="red" role="alert">
            {errorMessage(edits.error, 'Error loading behavior logs')}
          </Alert>
        )}
        {edits.data && edits.data.logs.length > 0 && (
          <List size="sm" spacing={2} aria-label="Recent edits">
            {edits.data.logs.slice(0, 10).map((log) => (
              <EditEntry key={log.id} log={log} />
            ))}
          </List>
        )}
      </Stack>
    </Paper>
  );
}
