import { endpoint, scope } from './endpoint';
import {
  ZCancelQueuedRequest,
  ZCancelQueuedResponse,
  ZSendDmRequest,
  ZSendDmResponse,
  ZSendDmsBulkRequest,
  ZSendDmsBulkResponse,
  ZSendingStatus,
  ZSendingStatusQuery,
} from './sending.schema';

const PROJECT_IN_BODY = { in: 'body', name: 'project_id' } as const;
const PROJECT_IN_QUERY = { in: 'query', name: 'project_id' } as const;

export const sendingEndpoints = {
  sendOne: endpoint({
    method: 'POST',
    path: '/api/v1/send-dm-message',
    summary:
      "Send one DM now from the project's ready account with the most capacity left (by its lead's post_id or its dm_id); refused while the agent runs autonomously",
    tags: ['dms'],
    scope: scope.child('dm', 'write', { in: 'body', name: 'dm_id' }, PROJECT_IN_BODY, { optionalId: true }),
    body: ZSendDmRequest,
    responses: { 200: ZSendDmResponse },
  }),
  sendBulk: endpoint({
    method: 'POST',
    path: '/api/v1/send-dm-messages-bulk',
    summary:
      'Queue every approved, unsent DM of the project, paced over its ready accounts within their delays, hours and daily caps; refused while the agent runs autonomously',
    tags: ['dms'],
    scope: scope.project('write', PROJECT_IN_BODY),
    body: ZSendDmsBulkRequest,
    responses: { 200: ZSendDmsBulkResponse },
  }),
  cancelQueued: endpoint({
    method: 'POST',
    path: '/api/v1/cancel-queued-dm-messages',
    summary:
      "Stop sending: the DMs the customer queued (Send All, a Send that waits) go back to the unsent ones; the agent's stay for Stop Agent",
    tags: ['dms'],
    scope: scope.project('write', PROJECT_IN_BODY),
    body: ZCancelQueuedRequest,
    responses: { 200: ZCancelQueuedResponse },
  }),
  status: endpoint({
    method: 'GET',
    path: '/api/v1/dm-sending-status',
    summary:
      "Queued, sending, sent, failed and unknown DMs with their reasons, for a project or all of one's own",
    tags: ['dms'],
    scope: scope.project('read', PROJECT_IN_QUERY, { optional: true }),
    query: ZSendingStatusQuery,
    responses: { 200: ZSendingStatus },
  }),
};
