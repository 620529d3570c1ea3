import {
  sendingEndpoints,
  type TCancelQueuedResponse,
  type TSendDmResponse,
  type TSendDmsBulkResponse,
  type TSendingState,
  type TSendingStatus,
} from '@threadreach/contract';
import { call } from '../../../lib/api-client';

/** The DM to send, as the DM list holds it. */
export interface TSendableDm {
  id: string;
  reddit_post_id: string;
}

/**
 * How long a Send may take: the server gives Reddit 30 s to renew the account's token and 30 s for the
 * compose before it answers (a compose it gave up on is 'unknown' and checked, never sent again). The
 * usual 30 s request timeout would end first and show an error for a DM that went or is being checked.
 */
export const SEND_TIMEOUT_MS = 90_000;

export function sendDm(projectId: string, dm: TSendableDm): Promise<TSendDmResponse> {
  return call(
    sendingEndpoints.sendOne,
    { body: { project_id: projectId, post_id: dm.reddit_post_id, dm_id: dm.id } },
    { timeoutMs: SEND_TIMEOUT_MS },
  );
}

export function sendAllDms(projectId: string): Promise<TSendDmsBulkResponse> {
  return call(sendingEndpoints.sendBulk, { body: { project_id: projectId } });
}

/** Stop sending: the DMs the customer queued go back to the unsent ones. */
export function cancelQueuedDms(projectId: string): Promise<TCancelQueuedResponse> {
  return call(sendingEndpoints.cancelQueued, { body: { project_id: projectId } });
}

export interface TSendingPage {
  limit: number;
  offset: number;
  state?: TSendingState;
}

export function getSendingStatus(projectId: string, page: TSendingPage): Promise<TSendingStatus> {
  return call(sendingEndpoints.status, { query: { project_id: projectId, ...page } });
}
