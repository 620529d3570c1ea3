import { Button } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { AskFirst } from '../../../components/ui/ask-first';
import { DisabledReason } from '../../../components/ui/disabled-reason';
import { useSendAllDms, type TSendingOptions } from '../hooks/use-sending';
import {
  ALL_ACCOUNTS_TOO_YOUNG,
  bulkFailureText,
  SAVE_BEFORE_SENDING_ALL,
  sendAllQuestion,
} from '../sending-texts';

export interface TSendAllDmsButtonProps extends TSendingOptions {
  projectId: string;
  readOnly: boolean;
  /** DMs whose edits are not saved yet: sending now would send their saved texts instead. */
  unsavedEdits?: number;
  /** Approved DMs not sent or queued yet, null until known: unless none, the button asks before it queues them. */
  readyToSend?: number | null;
  /** What the project's accounts can still send today, null until known: the question says so when short. */
  roomToday?: number | null;
  /** Every signed-in account is younger than Reddit's minimum age to send: nothing can be queued yet. */
  tooYoung?: boolean;
}

/**
 * Send All DMs: queues every approved, unsent DM of the project, paced over its connected accounts.
 * Asks first, saying how many will go; then says how many were queued and when the first and last go, or
 * why none could be.
 */
export function SendAllDmsButton({
  projectId,
  readOnly,
  unsavedEdits = 0,
  readyToSend = null,
  roomToday = null,
  tooYoung = false,
  onSettled,
}: TSendAllDmsButtonProps) {
  const sendAll = useSendAllDms(projectId, { onSettled });
  const run = (done?: () => void) =>
    sendAll.mutate(undefined, {
      onSuccess: (answer) =>
        notifications.show({ color: answer.queued > 0 ? 'green' : 'yellow', message: answer.message }),
      onError: (error) => notifications.show({ color: 'red', message: bulkFailureText(error) }),
      onSettled: done,
    });
  // Settles when the answer is in, so the question acts once however often it is clicked meanwhile.
  const runAndWait = (done: () => void) =>
    new Promise<void>((settle) =>
      run(() => {
        done();
        settle();
      }),
    );
  const blocked = readOnly
    ? null
    : unsavedEdits > 0
      ? SAVE_BEFORE_SENDING_ALL
      : tooYoung
        ? ALL_ACCOUNTS_TOO_YOUNG
        : null;
  if (!readOnly && blocked === null && readyToSend !== 0) {
    return (
      <AskFirst
        label="Send All DMs"
        question={sendAllQuestion(readyToSend, roomToday)}
        confirmLabel="Send all"
        declineLabel="Not now"
        color="teal"
        size="sm"
        variant="filled"
        wrap="wrap"
        pending={sendAll.isPending}
        onConfirm={(close) => runAndWait(close)}
      />
    );
  }
  // Nothing approved to send: the server's answer says so ('No unsent messages found for this project.').
  return (
    <DisabledReason why={blocked}>
      <Button
        color="teal"
        onClick={() => run()}
        loading={sendAll.isPending}
        disabled={readOnly || blocked !== null}
      >
        Send All DMs
      </Button>
    </DisabledReason>
  );
}
