import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { TCredential } from '@threadreach/contract';
import {
  CREDENTIAL_MESSAGES,
  DELETE_CONFIRM_TEXT,
  failureMessage,
  accountsInUseText,
} from '../credential-messages';
import { isCredentialGone, useDeleteCredential } from '../hooks/use-credentials';

interface TDeleteCredentialDialogProps {
  opened: boolean;
  credential: TCredential | null;
  onClose: () => void;
  onDeleted: (credential: TCredential) => void;
}

/**
 * Asks 'Are you sure you want to delete this credential?' before deleting. One that connected accounts
 * sign in through, as the list says, cannot be deleted, so Delete is disabled beside the reason. The
 * server checks again: its refusal (an account connected since the list was read) stays in the dialog as
 * 'Failed to delete credential: …'.
 */
export function DeleteCredentialDialog({
  opened,
  credential,
  onClose,
  onDeleted,
}: TDeleteCredentialDialogProps) {
  const remove = useDeleteCredential();
  const accountsInUse = credential?.usage_stats.connected_accounts ?? 0;

  const close = () => {
    remove.reset();
    onClose();
  };

  const confirm = () => {
    if (!credential) return;
    remove.mutate(credential.id, {
      onSuccess: () => {
        notifications.show({ color: 'green', message: 'Credential deleted' });
        onDeleted(credential);
        close();
      },
      onError: (error) => {
        if (!isCredentialGone(error)) return;
        // Already deleted elsewhere: nothing is left to confirm; say so beside the reloaded list.
        notifications.show({
          color: 'orange',
          message: failureMessage(CREDENTIAL_MESSAGES.deleteFailed, error),
        });
        onDeleted(credential);
        close();
      },
    });
  };

  return (
    <Modal
      closeButtonProps={{ 'aria-label': 'Close' }}
      opened={opened && credential !== null}
      onClose={close}
      title="Delete Credential"
      centered
    >
      <Stack gap="md">
        {remove.isError && (
          <Alert color="red" role="alert">
            {failureMessage(CREDENTIAL_MESSAGES.deleteFailed, remove.error)}
          </Alert>
        )}
        <Text>{DELETE_CONFIRM_TEXT}</Text>
        {accountsInUse > 0 && <Alert color="orange">{accountsInUseText(accountsInUse)}</Alert>}
        {credential && (
          <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {credential.account_name}
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            Cancel
          </Button>
          <Button color="red" onClick={confirm} loading={remove.isPending} disabled={accountsInUse > 0}>
            Delete
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
