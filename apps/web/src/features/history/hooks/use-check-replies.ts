import { useMutation, useQueryClient } from '@tanstack/react-query';
import { notifications } from '@mantine/notifications';
import type { TCheckRepliesResult } from '@threadreach/contract';
import { errorMessage } from '../../../lib/api-error';
import { checkReplies } from '../api/history.api';
import { historyKeys } from './use-history';

export const CHECK_REPLIES_FAILED = 'Could not check for replies';

/** What a look at the inboxes found, in one sentence, plus the accounts it could not read. */
export function checkRepliesText(result: TCheckRepliesResult): { message: string; color: string } {
  const unread = result.not_checked.map((n) => n.reason).join(' ');
  if (result.accounts_checked === 0) {
    return unread
      ? { message: unread, color: 'yellow' }
      : { message: 'No DM of this project has been sent yet, so there is nothing to check.', color: 'gray' };
  }
  let message =
    result.new_replies === 0
      ? 'No new replies'
      : `${result.new_replies} new ${result.new_replies === 1 ? 'reply' : 'replies'}`;
  if (result.refusals > 0) {
    message += ` (${result.refusals} asked not to be contacted again and ${result.refusals === 1 ? 'is' : 'are'} on your do-not-contact list)`;
  }
  return unread ? { message: `${message}. ${unread}`, color: 'yellow' } : { message, color: 'green' };
}

/** "Check for replies": reads the inboxes now rather than at the next automatic check (every 5 minutes). */
export function useCheckReplies(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => checkReplies(projectId),
    onSuccess: (result) => notifications.show(checkRepliesText(result)),
    onError: (error) =>
      notifications.show({ color: 'red', message: errorMessage(error, CHECK_REPLIES_FAILED) }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: historyKeys.all(projectId) }),
  });
}
