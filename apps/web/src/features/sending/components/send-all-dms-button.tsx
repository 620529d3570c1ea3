import { Button } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useSendAllDms, type TSendingOptions } from '../hooks/use-sending';
import { bulkFailureText } from '../sending-texts';

export interface TSendAllDmsButtonProps extends TSendingOptions {
  projectId: string;
  readOnly: boolean;
}

/**
 * Send All DMs: queues every approved, unsent DM of the project, paced over its connected accounts.
 * Says how many were queued and when the first and last go, or why none could be.
 */
export function SendAllDmsButton({ projectId, readOnly, onSettled }: TSendAllDmsButtonProps) {
  const sendAll = useSendAllDms(projectId, { onSettled });
  const run = () =>
    sendAll.mutate(undefined, {
      onSuccess: (answer) =>
        notifications.show({ color: answer.queued > 0 ? 'green' : 'yellow', message: answer.message }),
      onError: (error) => notifications.show({ color: 'red', message: bulkFailureText(error) }),
    });
  return (
    <Button color="teal" onClick={run} loading={sendAll.isPending} disabled={readOnly}>
      Send All DMs
    </Button>
  );
}
