import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { notifications } from '@mantine/notifications';
import { ApiError } from '../../../lib/api-error';
import { revealConnectAccount } from '../../accounts';
import { cancelQueuedDms, getSendingStatus, sendAllDms, sendDm, type TSendableDm } from '../api/sending.api';
import { inFlight, sendFailureText, sendSuccessText } from '../sending-texts';

/** Spec section 9: status refresh timers are at least 30 s. */
export const SENDING_STATUS_REFRESH_MS = 30_000;
export const SENDING_PAGE_SIZE = 20;

export const sendingKeys = {
  all: (projectId: string) => ['sending-status', projectId] as const,
  page: (projectId: string, page: number) => ['sending-status', projectId, page] as const,
};

export interface TSendingOptions {
  /**
   * Runs after every send or Send All, whatever came of it, and when the sending status's counts change
   * between its reads: e.g. the DM list reloads.
   */
  onSettled?: () => void;
  /** Runs when a person's Send went (or was queued) without error. */
  onSent?: (dm: TSendableDm) => void;
  /**
   * Runs when the server refused a Send or Send All because the project's agent runs autonomously,
   * started since this page last read it (another tab): e.g. the agent is read again, for its overlay.
   */
  onAgentRunning?: () => void;
}

/** What a refusal asks of the page: the agent read again, or Connect account shown when none is. */
function refused(error: unknown, options: TSendingOptions) {
  if (!(error instanceof ApiError)) return;
  if (error.code === 'agent_running') options.onAgentRunning?.();
  if (error.code === 'no_accounts') revealConnectAccount();
}

function useAfterSending(projectId: string, options: TSendingOptions) {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: sendingKeys.all(projectId) });
    options.onSettled?.();
  };
}

/**
 * A person's Send: the DM goes now. Says 'Sent to u/{recipient}', what became of it when it did not go at
 * once (queued, being checked), or the server's reason ('Error sending DM message' without one).
 */
export function useSendDm(projectId: string, options: TSendingOptions = {}) {
  const settled = useAfterSending(projectId, options);
  const mutation = useMutation({
    mutationFn: (dm: TSendableDm) => sendDm(projectId, dm),
    onSuccess: (answer, dm) => {
      notifications.show(sendSuccessText(answer));
      options.onSent?.(dm);
    },
    onError: (error) => {
      notifications.show({ color: 'red', message: sendFailureText(error) });
      refused(error, options);
    },
    onSettled: settled,
  });
  return {
    send: (dm: TSendableDm) => mutation.mutate(dm),
    /** The DM being sent, if one is. */
    sendingId: mutation.isPending ? (mutation.variables?.id ?? null) : null,
  };
}

/** Send All DMs: queues the project's approved DMs, paced over its accounts. */
export function useSendAllDms(projectId: string, options: TSendingOptions = {}) {
  const settled = useAfterSending(projectId, options);
  return useMutation({
    mutationFn: () => sendAllDms(projectId),
    onError: (error) => refused(error, options),
    onSettled: settled,
  });
}

/** Stop sending: takes back the DMs the customer queued; the status and the DM list reload. */
export function useStopSending(projectId: string, options: TSendingOptions = {}) {
  const settled = useAfterSending(projectId, options);
  return useMutation({ mutationFn: () => cancelQueuedDms(projectId), onSettled: settled });
}

/** The project's sending status, refreshed every 30 s while any DM is queued, sending or being checked. */
export function useSendingStatus(projectId: string, page: number) {
  return useQuery({
    queryKey: sendingKeys.page(projectId, page),
    queryFn: () =>
      getSendingStatus(projectId, { limit: SENDING_PAGE_SIZE, offset: (page - 1) * SENDING_PAGE_SIZE }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) =>
      query.state.data && inFlight(query.state.data.counts) > 0 ? SENDING_STATUS_REFRESH_MS : false,
  });
}
