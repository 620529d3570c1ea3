import { useEffect, useId, useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  Group,
  Loader,
  Modal,
  Paper,
  Stack,
  Table,
  Text,
  Title,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  ACCOUNT_DAILY_MESSAGE_LIMIT,
  ACCOUNT_LIMIT_REACHED,
  CONNECT_REDDIT_FAILED,
  REMOVE_ACCOUNT_FAILED,
  SELECT_PROJECT_FIRST,
  type TConnectedAccount,
} from '@threadreach/contract';
import { ApiError, errorMessage } from '../../../lib/api-error';
import { READ_ONLY_FLAG } from '../../auth';
import { readinessOf, secondsUntilAvailable } from '../account-readiness';
import { useAccounts, useRedditSignIn, useRemoveAccount } from '../hooks/use-accounts';
import { useSecondClock } from '../hooks/use-second-clock';
import { AccountSettingsDialog } from './account-settings-dialog';
import stacked from '../../../components/ui/stacked-table.module.css';

/** Beside a countdown that only working hours make: they hold Send All and the agent, not Send. */
export const SEND_GOES_NOW = 'A DM you send yourself with Send goes now.';
/** The badge outside working hours when nothing is queued from the account. */
export const OFF_HOURS_TEXT = 'Outside working hours';

export const NO_ACCOUNTS_TEXT = 'No Reddit accounts connected yet. Connect one to send messages from it.';

/** Why a sign-in could not start: the limit's own words, or the request's message. */
function connectFailure(error: unknown): string {
  const reason =
    error instanceof ApiError && error.code === 'account_limit_reached' && error.detail
      ? error.detail
      : errorMessage(error, 'Unknown error');
  return `${CONNECT_REDDIT_FAILED}: ${reason}`;
}

interface TAccountsPanelProps {
  /** The selected project; without one, connecting asks for a project first. */
  projectId: string | null;
  /** READONLY users look but change nothing. */
  readOnly: boolean;
}

/** The connected accounts panel above every step (spec section 2). */
export function AccountsPanel({ projectId, readOnly }: TAccountsPanelProps) {
  return (
    <Paper withBorder p="md" mb="md" component="section" aria-label="Connected Reddit accounts">
      {projectId ? (
        <ProjectAccounts projectId={projectId} readOnly={readOnly} />
      ) : (
        <PanelHeader
          readOnly={readOnly}
          blockedReason={null}
          connecting={false}
          onConnect={() => notifications.show({ color: 'yellow', message: SELECT_PROJECT_FIRST })}
        />
      )}
    </Paper>
  );
}

function PanelHeader(props: {
  readOnly: boolean;
  blockedReason: string | null;
  connecting: boolean;
  onConnect: () => void;
  refresh?: { onClick: () => void; loading: boolean };
}) {
  return (
    <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
      <div>
        <Title order={4}>Connected Reddit accounts</Title>
        <Text size="sm" c="dimmed">
          Each connected account sends up to {ACCOUNT_DAILY_MESSAGE_LIMIT} messages per day.
        </Text>
      </div>
      <Group gap="xs">
        {props.refresh && (
          <Button variant="default" size="xs" onClick={props.refresh.onClick} loading={props.refresh.loading}>
            Refresh
          </Button>
        )}
        <ConnectButton
          blockedReason={props.readOnly ? READ_ONLY_FLAG : props.blockedReason}
          limitReached={!props.readOnly && props.blockedReason !== null}
          loading={props.connecting}
          onClick={props.onConnect}
        />
      </Group>
    </Group>
  );
}

/** The page's Connect account button, whichever way it shows. */
export const CONNECT_ACCOUNT_BUTTON_ID = 'connect-reddit-account';

/**
 * Brings Connect account into view and gives it focus: a send refused for want of an account points the
 * person at the fix, which sits above the steps, far from the DM they tried to send.
 */
export function revealConnectAccount(): void {
  const button = document.getElementById(CONNECT_ACCOUNT_BUTTON_ID);
  if (!button) return;
  button.scrollIntoView({ block: 'center' });
  button.focus({ preventScroll: true });
}

/** Connect account, or a disabled 'Limit Reached' that still tells why when hovered or focused. */
function ConnectButton(props: {
  blockedReason: string | null;
  limitReached: boolean;
  loading: boolean;
  onClick: () => void;
}) {
  const reasonId = useId();
  if (!props.blockedReason) {
    return (
      <Button id={CONNECT_ACCOUNT_BUTTON_ID} size="xs" onClick={props.onClick} loading={props.loading}>
        Connect account
      </Button>
    );
  }
  return (
    <>
      <Tooltip
        label={props.blockedReason}
        role="tooltip"
        multiline
        w={280}
        withArrow
        events={{ hover: true, focus: true, touch: true }}
      >
        <Button
          id={CONNECT_ACCOUNT_BUTTON_ID}
          size="xs"
          data-disabled
          aria-disabled
          aria-describedby={reasonId}
          onClick={(event) => event.preventDefault()}
        >
          {props.limitReached ? ACCOUNT_LIMIT_REACHED : 'Connect account'}
        </Button>
      </Tooltip>
      <VisuallyHidden id={reasonId}>{props.blockedReason}</VisuallyHidden>
    </>
  );
}

function ProjectAccounts({ projectId, readOnly }: { projectId: string; readOnly: boolean }) {
  const accounts = useAccounts(projectId);
  const signIn = useRedditSignIn(projectId);
  const [settingsOf, setSettingsOf] = useState<TConnectedAccount | null>(null);
  const [removing, setRemoving] = useState<TConnectedAccount | null>(null);
  const items = accounts.data?.items ?? [];
  const waiting = items.some((a) => !a.capacity.can_send_now && a.capacity.next_available_at !== null);
  const now = useSecondClock(waiting);

  // When a countdown runs out, the account's state is read again instead of guessed.
  const due = items
    .filter((a) => a.capacity.next_available_at !== null && secondsUntilAvailable(a, now) === 0)
    .map((a) => `${a.id}@${a.capacity.next_available_at}`)
    .join(',');
  const { refetch } = accounts;
  useEffect(() => {
    if (due) void refetch();
  }, [due, refetch]);

  const startSignIn = (accountId: string | null) =>
    signIn.mutate(accountId, {
      onError: (error) => notifications.show({ color: 'red', message: connectFailure(error) }),
    });

  return (
    <Stack gap="sm">
      <PanelHeader
        readOnly={readOnly}
        blockedReason={accounts.data?.connect_limit.blocked_reason ?? null}
        connecting={signIn.isPending && signIn.variables === null}
        onConnect={() => startSignIn(null)}
        refresh={{ onClick: () => void accounts.refetch(), loading: accounts.isFetching }}
      />
      {accounts.isPending && (
        <Group justify="center" py="xs">
          <Loader size="sm" aria-label="Loading accounts" />
        </Group>
      )}
      {accounts.isError && (
        <Alert color="red" role="alert">
          {errorMessage(accounts.error, 'Failed to load Reddit accounts')}
        </Alert>
      )}
      {accounts.isSuccess && items.length === 0 && (
        <Text size="sm" c="dimmed">
          {NO_ACCOUNTS_TEXT}
        </Text>
      )}
      {items.length > 0 && (
        <Table.ScrollContainer minWidth={560} className={stacked.scroll}>
          <Table verticalSpacing="xs" aria-label="Reddit accounts" className={stacked.table}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Account</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Remaining today</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((account) => (
                <AccountRow
                  key={account.id}
                  account={account}
                  now={now}
                  readOnly={readOnly}
                  reauthenticating={signIn.isPending && signIn.variables === account.id}
                  onReauthenticate={() => startSignIn(account.id)}
                  onSettings={() => setSettingsOf(account)}
                  onRemove={() => setRemoving(account)}
                />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <AccountSettingsDialog
        projectId={projectId}
        account={settingsOf}
        readOnly={readOnly}
        onClose={() => setSettingsOf(null)}
      />
      <RemoveAccountDialog projectId={projectId} account={removing} onClose={() => setRemoving(null)} />
    </Stack>
  );
}

function AccountRow(props: {
  account: TConnectedAccount;
  now: number;
  readOnly: boolean;
  reauthenticating: boolean;
  onReauthenticate: () => void;
  onSettings: () => void;
  onRemove: () => void;
}) {
  const { account, readOnly } = props;
  const readiness = readinessOf(account, props.now);
  const queuedOnly = readiness.kind === 'waiting' && readiness.queuedOnly;
  // Outside working hours with nothing queued from it, no sends wait: the hours are all there is to say.
  const nothingQueued = queuedOnly && account.queued_sends === 0;
  const waitingText =
    readiness.kind !== 'waiting'
      ? null
      : !readiness.queuedOnly
        ? `Can send in ${readiness.label}`
        : nothingQueued
          ? OFF_HOURS_TEXT
          : `Queued sends in ${readiness.label}`;
  const age = account.account_age_days === null ? 'age unknown' : `${account.account_age_days} days old`;
  return (
    <Table.Tr data-testid={`account-${account.reddit_username}`}>
      <Table.Td>
        <Text fw={500}>{account.account_display_name}</Text>
        <Text size="xs" c="dimmed">
          {age} · {account.comment_karma + account.link_karma} karma
        </Text>
      </Table.Td>
      <Table.Td>
        <Badge
          color={readiness.color}
          variant="light"
          tt={queuedOnly ? 'none' : undefined}
          aria-label={`Status: ${waitingText ? waitingText.toLowerCase() : readiness.label}`}
          title={
            queuedOnly
              ? `Send All and the agent send from this account in ${readiness.label}`
              : (waitingText ?? undefined)
          }
        >
          {queuedOnly ? waitingText : readiness.label}
        </Badge>
        {readiness.kind !== 'ready' && !nothingQueued && account.capacity.reason && (
          <Text size="xs" c="dimmed" mt={2}>
            {account.capacity.reason}
          </Text>
        )}
        {queuedOnly && (
          <Text size="xs" mt={2}>
            {SEND_GOES_NOW}
          </Text>
        )}
      </Table.Td>
      <Table.Td data-label="Remaining today">
        <Text size="sm" span>
          {account.remaining_today}/{account.daily_message_limit}
        </Text>
      </Table.Td>
      <Table.Td>
        <Group gap={4} justify="flex-end" wrap="nowrap">
          {readiness.kind === 'auth-required' && (
            <Button
              size="compact-xs"
              color="red"
              variant="light"
              disabled={readOnly}
              loading={props.reauthenticating}
              onClick={props.onReauthenticate}
            >
              Re-authenticate
            </Button>
          )}
          <Button size="compact-xs" variant="default" onClick={props.onSettings}>
            Settings
          </Button>
          <Button size="compact-xs" variant="subtle" color="red" disabled={readOnly} onClick={props.onRemove}>
            Remove
          </Button>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

function RemoveAccountDialog(props: {
  projectId: string;
  account: TConnectedAccount | null;
  onClose: () => void;
}) {
  const remove = useRemoveAccount(props.projectId);
  const close = () => {
    remove.reset();
    props.onClose();
  };
  const confirm = () => {
    const { account } = props;
    if (!account) return;
    remove.mutate(account.id, {
      onSuccess: () => {
        notifications.show({ color: 'green', message: `${account.account_display_name} removed` });
        close();
      },
    });
  };
  return (
    <Modal
      closeButtonProps={{ 'aria-label': 'Close' }}
      opened={props.account !== null}
      onClose={close}
      title="Remove Reddit account"
      centered
    >
      <Stack gap="md">
        {remove.isError && (
          <Alert color="red" role="alert" title={REMOVE_ACCOUNT_FAILED}>
            {errorMessage(remove.error, '')}
          </Alert>
        )}
        <Text>
          Remove {props.account?.account_display_name}? It stops sending for this project, and Threadreach
          gives up its access at Reddit.
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            Cancel
          </Button>
          <Button color="red" onClick={confirm} loading={remove.isPending}>
            Remove
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
