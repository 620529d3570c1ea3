import {
  ZAccountAuthStatusList,
  ZAccountList,
  ZAccountListQuery,
  ZAccountParams,
  ZAccountSettings,
  ZAccountSettingsParams,
  ZRedditCallbackQuery,
  ZRedditLoginQuery,
  ZRedditLoginResponse,
  ZUpdateAccountSettingsRequest,
} from './accounts.schema';
import { endpoint, scope } from './endpoint';
import { ZProjectParams } from './projects.schema';

const PROJECT_IN_QUERY = { in: 'query', name: 'project_id' } as const;
const PROJECT_PARAM = { in: 'params', name: 'projectId' } as const;
const ACCOUNT_PARAM = { in: 'params', name: 'accountId' } as const;
/** Admins connect, remove, configure and re-authenticate accounts on customers' projects too (spec section 6). */
const ADMIN_WRITES = { adminWrites: true } as const;

export const redditAuthEndpoints = {
  login: endpoint({
    method: 'GET',
    path: '/api/v1/auth/reddit/login',
    summary: "Start connecting a Reddit account to the project: Reddit's authorize URL",
    tags: ['accounts'],
    scope: scope.project('write', PROJECT_IN_QUERY, ADMIN_WRITES),
    query: ZRedditLoginQuery,
    responses: { 200: ZRedditLoginResponse },
  }),
  callback: endpoint({
    method: 'GET',
    path: '/api/v1/auth/reddit/callback',
    summary: "Reddit's redirect after consent; connects the account and returns to the app",
    tags: ['accounts'],
    scope: scope.public(),
    query: ZRedditCallbackQuery,
    responses: { 302: null },
    hide: true,
  }),
};

export const accountsEndpoints = {
  list: endpoint({
    method: 'GET',
    path: '/api/v1/projects/:projectId/accounts',
    summary: "The project's connected Reddit accounts with their readiness to send",
    tags: ['accounts'],
    scope: scope.project('read'),
    params: ZProjectParams,
    query: ZAccountListQuery,
    responses: { 200: ZAccountList },
  }),
  authStatus: endpoint({
    method: 'GET',
    path: '/api/v1/projects/:projectId/accounts-auth-status',
    summary: 'Authentication and sending capacity of each connected account, with its wait in seconds',
    tags: ['accounts'],
    scope: scope.project('read'),
    params: ZProjectParams,
    query: ZAccountListQuery,
    responses: { 200: ZAccountAuthStatusList },
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/api/v1/projects/:projectId/accounts/:accountId',
    summary: 'Disconnect a Reddit account; its grant is revoked at Reddit',
    tags: ['accounts'],
    scope: scope.child('account', 'write', ACCOUNT_PARAM, PROJECT_PARAM, ADMIN_WRITES),
    params: ZAccountParams,
    responses: { 204: null },
  }),
  reauthenticate: endpoint({
    method: 'POST',
    path: '/api/v1/projects/:projectId/accounts/:accountId/reauthenticate',
    summary: "Sign the account in again: Reddit's authorize URL, for this same account",
    tags: ['accounts'],
    scope: scope.child('account', 'write', ACCOUNT_PARAM, PROJECT_PARAM, ADMIN_WRITES),
    params: ZAccountParams,
    responses: { 200: ZRedditLoginResponse },
  }),
  getSettings: endpoint({
    method: 'GET',
    path: '/api/v1/reddit-accounts/:accountId/settings',
    summary: "The account's sending settings: delays, working hours and days, time zone",
    tags: ['accounts'],
    scope: scope.child('account', 'read', ACCOUNT_PARAM),
    params: ZAccountSettingsParams,
    responses: { 200: ZAccountSettings },
  }),
  updateSettings: endpoint({
    method: 'POST',
    path: '/api/v1/reddit-accounts/:accountId/settings',
    summary: "Change the account's sending settings",
    tags: ['accounts'],
    scope: scope.child('account', 'write', ACCOUNT_PARAM, undefined, ADMIN_WRITES),
    params: ZAccountSettingsParams,
    body: ZUpdateAccountSettingsRequest,
    responses: { 200: ZAccountSettings },
  }),
};
