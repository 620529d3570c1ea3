import {
  accountsEndpoints,
  redditAuthEndpoints,
  type TAccountList,
  type TAccountSettings,
  type TRedditLoginResponse,
  type TUpdateAccountSettingsRequest,
} from '@threadreach/contract';
import { call } from '../../../lib/api-client';

/** A project holds a handful of accounts: one page shows them all. */
export const ACCOUNTS_PAGE_SIZE = 100;

export function listAccounts(projectId: string): Promise<TAccountList> {
  return call(accountsEndpoints.list, {
    params: { projectId },
    query: { limit: ACCOUNTS_PAGE_SIZE, offset: 0 },
  });
}

/** Reddit's authorize URL for connecting another account to the project. */
export function startRedditLogin(projectId: string): Promise<TRedditLoginResponse> {
  return call(redditAuthEndpoints.login, { query: { project_id: projectId, additional_account: 'true' } });
}

/** Reddit's authorize URL for signing an account in again. */
export function startReauthentication(projectId: string, accountId: string): Promise<TRedditLoginResponse> {
  return call(accountsEndpoints.reauthenticate, { params: { projectId, accountId } });
}

export function removeAccount(projectId: string, accountId: string): Promise<void> {
  return call(accountsEndpoints.remove, { params: { projectId, accountId } });
}

export function getAccountSettings(accountId: string): Promise<TAccountSettings> {
  return call(accountsEndpoints.getSettings, { params: { accountId } });
}

export function saveAccountSettings(
  accountId: string,
  body: TUpdateAccountSettingsRequest,
): Promise<TAccountSettings> {
  return call(accountsEndpoints.updateSettings, { params: { accountId }, body });
}
