import { endpoint, scope } from './endpoint';
import {
  ZCampaignStatistics,
  ZCampaignStatisticsQuery,
  ZCheckRepliesResult,
  ZHistoryList,
  ZHistoryQuery,
} from './history.schema';
import { ZProjectParams } from './projects.schema';

/** Step 4's History tab and the campaign's counts. */
export const historyEndpoints = {
  list: endpoint({
    method: 'GET',
    path: '/api/v1/projects/:projectId/history',
    summary: 'People the project contacted, the latest first, with their reply',
    tags: ['history'],
    scope: scope.project('read'),
    params: ZProjectParams,
    query: ZHistoryQuery,
    responses: { 200: ZHistoryList },
  }),
  checkReplies: endpoint({
    method: 'POST',
    path: '/api/v1/projects/:projectId/history/check-replies',
    summary: "Read now the inboxes of the accounts that sent the project's DMs, for replies",
    tags: ['history'],
    scope: scope.project('write'),
    params: ZProjectParams,
    responses: { 200: ZCheckRepliesResult },
  }),
  campaignStatistics: endpoint({
    method: 'GET',
    path: '/api/v1/campaign-statistics',
    summary: "A project's DMs generated, sent, failed, expired and replied, and its reply rate",
    tags: ['history'],
    scope: scope.project('read', { in: 'query', name: 'project_id' }),
    query: ZCampaignStatisticsQuery,
    responses: { 200: ZCampaignStatistics },
  }),
};
