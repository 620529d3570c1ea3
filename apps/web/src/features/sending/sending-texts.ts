import {
  ACCOUNT_MIN_AGE_DAYS,
  isWithheldOutcome,
  plural,
  SENDING_TEXTS,
  type TSendDmResponse,
  type TSendingCounts,
  type TSendingItem,
  type TSendingState,
  ZSendingState,
} from '@threadreach/contract';
import { ApiError } from '../../lib/api-error';

/** Why Send All DMs waits while every signed-in account is younger than Reddit's minimum to send. */
export const ALL_ACCOUNTS_TOO_YOUNG = `Your Reddit accounts must be at least ${ACCOUNT_MIN_AGE_DAYS} days old to send DMs: Send All DMs waits until one is`;

/** Send All DMs sends the saved texts, so it waits for the edits shown as Unsaved. */
export const SAVE_BEFORE_SENDING_ALL = 'Save or undo your edits first: Send All DMs sends the saved texts';

/**
 * Why Send All DMs is off when the DM list counts none it would queue (ready_to_send 0): every DM is sent,
 * queued, expired with its lead or to someone who may not be contacted, or there is none. Each DM says which.
 */
export const NOTHING_READY_TO_SEND =
  'No DM is ready to send: Send All DMs sends DMs not sent or queued yet, to people who may be contacted, before they expire with their leads';

/**
 * Send All DMs asks this before it queues the approved DMs: how many, once the DM list has loaded, and,
 * when the accounts cannot take them all today, how many those in their working hours now still can
 * (`roomToday`; the rest wait for later days).
 */
export function sendAllQuestion(ready: number | null, roomToday: number | null = null): string {
  // Generated DMs start approved (spec), so 'approved' would name a review the customer never did.
  const dms = ready === null ? 'every DM not sent yet' : `${plural(ready, 'DM')} not sent yet`;
  const limits =
    "They leave one at a time from your Reddit accounts, within each account's working hours and daily limit";
  if (roomToday === null || (ready !== null && ready <= roomToday)) return `Send ${dms}? ${limits}.`;
  const today =
    roomToday === 0
      ? "none of your accounts can send now (outside its working hours, or its daily limit used), so they start when an account's hours and limit next allow"
      : `your accounts in their working hours now have room for ${plural(roomToday, 'more DM')} today, the rest go on later days, and any that would expire first stay unsent`;
  return `Send ${dms}? ${limits}: ${today}.`;
}

/** Bulk refusals whose server text is one of spec section 8's own: shown as they are. */
const BULK_SPEC_CODES: readonly string[] = ['no_accounts', 'no_unsent_messages'];

/** What a single Send says: 'Sent to u/…', or what became of the DM when it did not go at once. */
export function sendSuccessText(answer: TSendDmResponse): { color: 'green' | 'yellow'; message: string } {
  return answer.state === 'sent'
    ? { color: 'green', message: SENDING_TEXTS.sentTo(answer.recipient) }
    : { color: 'yellow', message: answer.message };
}

/** The server's reason for a refused Send, or spec section 8's 'Error sending DM message'. */
export function sendFailureText(error: unknown): string {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500 && error.message) {
    return error.message;
  }
  return SENDING_TEXTS.sendFailed;
}

/** Spec section 8's texts for Send All: its own two as they are, otherwise 'Error sending bulk DMs: {reason}'. */
export function bulkFailureText(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.code && BULK_SPEC_CODES.includes(error.code) && error.detail) return error.detail;
    return SENDING_TEXTS.bulkFailed(error.message);
  }
  return SENDING_TEXTS.bulkFailed(error instanceof Error ? error.message : 'Unknown error');
}

export const STATE_LABELS: Record<TSendingState, { label: string; color: string }> = {
  queued: { label: 'Queued', color: 'blue' },
  sending: { label: 'Sending', color: 'blue' },
  sent: { label: 'Sent', color: 'green' },
  failed: { label: 'Failed', color: 'red' },
  unknown: { label: 'Checking delivery', color: 'orange' },
};

/** A failed DM held back because of its person: the campaign's counts leave it out of Failed too. */
const HELD_BACK = { label: 'Held back', color: 'gray' };

/**
 * The badge of a DM on its way or done (the sending status and step 4's DM list): its state's, but an
 * unknown DM whose account was removed is checked no more, and a failed one held back because of its person
 * was never tried.
 */
export function sendingStateLabel(item: Pick<TSendingItem, 'state' | 'outcome_code'>): {
  label: string;
  color: string;
} {
  if (item.state === 'unknown' && item.outcome_code === 'account_removed')
    return { label: 'Delivery unknown', color: 'gray' };
  // Never tried because of its person (on the do-not-contact list, answered, contacted): no failed send.
  if (item.state === 'failed' && isWithheldOutcome(item.outcome_code)) return HELD_BACK;
  return STATE_LABELS[item.state];
}

/** DMs still on their way or being checked: the status refreshes while there are any. */
export function inFlight(counts: TSendingCounts): number {
  return counts.queued + counts.sending + counts.unknown - counts.delivery_unknown;
}

/**
 * The status's badges: a count for each state, an unknown DM whose account was removed apart as "Delivery
 * unknown" (shown only when there is one), since nothing checks it any more, and failed DMs held back because
 * of their person apart as "Held back" (only when there is one): Failed counts failed sends, as the campaign's
 * counts do.
 */
export function stateCountBadges(counts: TSendingCounts): { key: string; label: string; color: string }[] {
  const badges: { key: string; label: string; color: string }[] = ZSendingState.options.map((state) => {
    const n = state === 'unknown' ? counts.unknown - counts.delivery_unknown : counts[state];
    return { key: state, label: `${STATE_LABELS[state].label}: ${n}`, color: STATE_LABELS[state].color };
  });
  if (counts.withheld > 0) {
    badges.push({ key: 'withheld', label: `${HELD_BACK.label}: ${counts.withheld}`, color: HELD_BACK.color });
  }
  if (counts.delivery_unknown > 0) {
    const removed = sendingStateLabel({ state: 'unknown', outcome_code: 'account_removed' });
    badges.push({
      key: 'delivery_unknown',
      label: `${removed.label}: ${counts.delivery_unknown}`,
      color: removed.color,
    });
  }
  return badges;
}

/** Stop sending's question: what happens to the queued DMs. */
export function stopSendingQuestion(queued: number): string {
  const dms = queued === 1 ? 'the queued DM' : `the ${queued} queued DMs`;
  return `Stop sending ${dms}? They go back to the unsent DMs, and Send All queues them again. DMs the agent queued stay: Stop Agent takes those back.`;
}
