import { Button } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { AskFirst } from '../../../components/ui/ask-first';
import { DisabledReason } from '../../../components/ui/disabled-reason';
import { useSendAllDms, type TSendingOptions } from '../hooks/use-sending';
import {
  ALL_ACCOUNTS_TOO_YOUNG,
  bulkFailureText,
  NOTHING_READY_TO_SEND,
  SAVE_BEFORE_SENDING_ALL,
  sendAllQuestion,
} from '../sending-texts';

export interface TSendAllDmsButtonProps extends TSendingOptions {
  projectId: string;
  readOnly: boolean;
  /** DMs whose edits are not saved yet: sending now would send their saved texts instead. */
  unsavedEdits?: number;
  /**
   * What Send All would queue (the DM list's ready_to_send), null until known: the button asks before it
   * queues them, and is off when there are none.
   */
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
  onAgentRunning,
}: TSendAllDmsButtonProps) {
  const sendAll = useSendAllDms(projectId, { onSettled, onAgentRunning });
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
  // Nothing to queue outlasts the other reasons: saving an edit or an older account would not change it.
  const blocked = readOnly
    ? null
    : readyToSend === 0
      ? NOTHING_READY_TO_SEND
      : unsavedEdits > 0
        ? SAVE_BEFORE_SENDING_ALL
        : tooYoung
          ? ALL_ACCOUNTS_TOO_YOUNG
          : null;
  if (!readOnly && blocked === null) {
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
  return (
    <DisabledReason why={blocked}>
      <Button color="teal" loading={sendAll.isPending} disabled>
        Send All DMs
      </Button>
    </DisabledReason>
  );
}
