import { Button } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { DisabledReason } from '../../../components/ui/disabled-reason';
import { useSendAllDms, type TSendingOptions } from '../hooks/use-sending';
import { bulkFailureText, SAVE_BEFORE_SENDING_ALL } from '../sending-texts';

export interface TSendAllDmsButtonProps extends TSendingOptions {
  projectId: string;
  readOnly: boolean;
  /** DMs whose edits are not saved yet: sending now would send their saved texts instead. */
  unsavedEdits?: number;
}

/**
 * Send All DMs: queues every approved, unsent DM of the project, paced over its connected accounts.
 * Says how many were queued and when the first and last go, or why none could be.
 */
export function SendAllDmsButton({
  projectId,
  readOnly,
  unsavedEdits = 0,
  onSettled,
}: TSendAllDmsButtonProps) {
  const sendAll = useSendAllDms(projectId, { onSettled });
  const run = () =>
    sendAll.mutate(undefined, {
      onSuccess: (answer) =>
        notifications.show({ color: answer.queued > 0 ? 'green' : 'yellow', message: answer.message }),
      onError: (error) => notifications.show({ color: 'red', message: bulkFailureText(error) }),
    });
  const blocked = !readOnly && unsavedEdits > 0 ? SAVE_BEFORE_SENDING_ALL : null;
  return (
    <DisabledReason why={blocked}>
      <Button color="teal" onClick={run} loading={sendAll.isPending} disabled={readOnly || blocked !== null}>
        Send All DMs
      </Button>
    </DisabledReason>
  );
}
