import { useState } from 'react';
import {
  Alert,
  Badge,
  Center,
  Group,
  Loader,
  Pagination,
  Paper,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { TSendingItem, TSendingStatus } from '@threadreach/contract';
import { AskFirst } from '../../../components/ui/ask-first';
import { errorMessage } from '../../../lib/api-error';
import { useOnChange } from '../../../lib/use-on-change';
import {
  SENDING_PAGE_SIZE,
  useSendingStatus,
  useStopSending,
  type TSendingOptions,
} from '../hooks/use-sending';
import { sendingStateLabel, stateCountBadges, stopSendingQuestion } from '../sending-texts';
import stacked from '../../../components/ui/stacked-table.module.css';

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '');

/** When the next queued DM goes; one already due names no time past, only what it waits for, if anything. */
function nextDmText(at: string, wait: TSendingStatus['next_wait']): string {
  const because = wait ? ` · u/${wait.account_username}: ${wait.reason}` : '';
  if (Date.parse(at) > Date.now()) return `Next DM goes at ${when(at)}${because}`;
  return wait ? `Next DM waits${because}` : 'Next DM goes now';
}

/** The instant that matters for the DM's state: when it goes, went, or failed. */
function instantOf(item: TSendingItem): string {
  if (item.state === 'sent') return when(item.sent_at);
  if (item.state === 'failed') return when(item.failed_at);
  if (item.state === 'queued') return when(item.scheduled_for);
  return when(item.claimed_at);
}

export interface TSendingStatusPanelProps extends TSendingOptions {
  projectId: string;
  readOnly: boolean;
  /** The section's id, for a skip link to it. */
  id?: string;
}

/** Stop sending: the DMs the customer queued go back to the unsent ones, after a question. */
function StopSending({
  projectId,
  queued,
  onSettled,
}: { projectId: string; queued: number } & TSendingOptions) {
  const stop = useStopSending(projectId, { onSettled });
  return (
    <AskFirst
      label="Stop sending"
      question={stopSendingQuestion(queued)}
      confirmLabel="Stop sending"
      declineLabel="Not now"
      size="xs"
      variant="light"
      wrap="wrap"
      pending={stop.isPending}
      onConfirm={(close) =>
        stop
          .mutateAsync()
          .then((answer) => {
            notifications.show({ color: answer.cancelled > 0 ? 'green' : 'yellow', message: answer.message });
            close();
          })
          .catch((error: unknown) =>
            notifications.show({
              color: 'red',
              message: errorMessage(error, 'Sending could not be stopped'),
            }),
          )
      }
    />
  );
}

/**
 * What sending is doing for the project: how many DMs are queued, sending, sent, failed or being checked,
 * when the next one goes and what it waits for, and each DM with its account and reason. Refreshed while any is on its way.
 */
export function SendingStatusPanel({ projectId, readOnly, id, onSettled }: TSendingStatusPanelProps) {
  const [page, setPage] = useState(1);
  const status = useSendingStatus(projectId, page);
  const data = status.data;
  // DMs go, fail or are queued (by the agent too) between two reads: whenever the counts change, `onSettled`
  // reads again what sending changes elsewhere (the DM list, the campaign's counts, the accounts' room
  // today), so they agree with these counts. At most once a read of the status, which polls only while a DM
  // is on its way.
  useOnChange(data ? JSON.stringify(data.counts) : null, () => onSettled?.());
  const pages = Math.max(1, Math.ceil((data?.total ?? 0) / SENDING_PAGE_SIZE));

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-label="Sending status" id={id}>
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={3}>Sending status</Title>
          {/* Stop sending takes back what the customer queued; the agent's wait for Stop Agent. */}
          {!readOnly && data && data.counts.queued > data.counts.queued_by_agent && (
            <StopSending
              projectId={projectId}
              queued={data.counts.queued - data.counts.queued_by_agent}
              onSettled={onSettled}
            />
          )}
        </Group>
        {status.isPending ? (
          <Center py="sm">
            <Loader size="sm" aria-label="Loading sending status" />
          </Center>
        ) : status.isError ? (
          <Alert color="red" role="alert">
            {status.error.message}
          </Alert>
        ) : data ? (
          <>
            <Group gap="xs" aria-label="DMs by state">
              {stateCountBadges(data.counts).map((badge) => (
                <Badge key={badge.key} variant="light" color={badge.color}>
                  {badge.label}
                </Badge>
              ))}
            </Group>
            {data.next_scheduled_for && (
              <Text size="sm" c="dimmed">
                {nextDmText(data.next_scheduled_for, data.next_wait)}
              </Text>
            )}
            {data.items.length === 0 ? (
              <Text size="sm" c="dimmed">
                No DM has been sent or queued yet.
              </Text>
            ) : (
              <Table.ScrollContainer minWidth={600} className={stacked.scroll}>
                <Table striped withTableBorder fz="sm" aria-label="Sending DMs" className={stacked.table}>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>To</Table.Th>
                      <Table.Th>State</Table.Th>
                      <Table.Th>Account</Table.Th>
                      <Table.Th>When</Table.Th>
                      <Table.Th>Reason</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {data.items.map((item) => (
                      <Table.Tr key={item.id}>
                        <Table.Td data-label="To">u/{item.recipient_username}</Table.Td>
                        <Table.Td data-label="State">
                          <Badge size="sm" variant="light" color={sendingStateLabel(item).color}>
                            {sendingStateLabel(item).label}
                          </Badge>
                        </Table.Td>
                        <Table.Td data-label="Account">
                          {item.account_username ? `u/${item.account_username}` : ''}
                        </Table.Td>
                        <Table.Td data-label="When">{instantOf(item)}</Table.Td>
                        <Table.Td data-label="Reason">
                          {item.state === 'sent' ? '' : (item.outcome_reason ?? '')}
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
            {pages > 1 && (
              <Group justify="center">
                <Pagination total={pages} value={Math.min(page, pages)} onChange={setPage} size="sm" />
              </Group>
            )}
          </>
        ) : null}
      </Stack>
    </Paper>
  );
}
