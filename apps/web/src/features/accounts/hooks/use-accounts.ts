import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TUpdateAccountSettingsRequest } from '@threadreach/contract';
import { navigateTo } from '../../../lib/navigation';
import {
  getAccountSettings,
  listAccounts,
  removeAccount,
  saveAccountSettings,
  startReauthentication,
  startRedditLogin,
} from '../api/accounts.api';

export const accountKeys = {
  list: (projectId: string) => ['accounts', projectId] as const,
  settings: (accountId: string) => ['account-settings', accountId] as const,
};

export function useAccounts(projectId: string) {
  return useQuery({ queryKey: accountKeys.list(projectId), queryFn: () => listAccounts(projectId) });
}

/**
 * Starts Reddit's sign-in and leaves for its consent page: a new account, or `accountId` again. The
 * browser comes back to the app with the outcome in the address.
 */
export function useRedditSignIn(projectId: string) {
  return useMutation({
    mutationFn: async (accountId: string | null) => {
      const { auth_url } = accountId
        ? await startReauthentication(projectId, accountId)
        : await startRedditLogin(projectId);
      navigateTo(auth_url);
    },
  });
}

export function useRemoveAccount(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (accountId: string) => removeAccount(projectId, accountId),
    // Its queued DMs went back to the unsent ones and its sends stop: the sending status, the DM list and
    // the agent shown all change with it, so everything on screen is asked for again.
    onSuccess: () => queryClient.invalidateQueries(),
  });
}

export function useAccountSettings(accountId: string) {
  return useQuery({
    queryKey: accountKeys.settings(accountId),
    queryFn: () => getAccountSettings(accountId),
  });
}

export function useSaveAccountSettings(projectId: string, accountId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TUpdateAccountSettingsRequest) => saveAccountSettings(accountId, body),
    onSuccess: async (settings) => {
      queryClient.setQueryData(accountKeys.settings(accountId), settings);
      // Working hours and zone change when the account can send next.
      await queryClient.invalidateQueries({ queryKey: accountKeys.list(projectId) });
    },
  });
}
