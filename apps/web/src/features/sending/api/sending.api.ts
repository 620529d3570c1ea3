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

export function sendDm(projectId: string, dm: TSendableDm): Promise<TSendDmResponse> {
  return call(sendingEndpoints.sendOne, {
    body: { project_id: projectId, post_id: dm.reddit_post_id, dm_id: dm.id },
  });
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
