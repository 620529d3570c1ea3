import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  TCreateCredentialRequest,
  TCredentialDetailed,
  TUpdateCredentialRequest,
} from '@threadreach/contract';
import {
  createCredential,
  deleteCredential,
  getCredentialDetailed,
  getProxyPoolStats,
  listCredentials,
  listProxyDetails,
  replaceCredentialProxy,
  setCredentialEnabled,
  testCredentialConnection,
  updateCredential,
  type TCredentialListParams,
} from '../api/credentials.api';
import { ApiError } from '../../../lib/api-error';

/** Rows per page of the credentials table and of the proxy table. */
export const CREDENTIALS_PAGE_SIZE = 20;
export const PROXY_DETAILS_PAGE_SIZE = 20;

export const credentialKeys = {
  all: ['credentials'] as const,
  lists: ['credentials', 'list'] as const,
  list: (params: TCredentialListParams) => ['credentials', 'list', params] as const,
  detail: (id: string) => ['credentials', 'detail', id] as const,
};

export const proxyPoolKeys = {
  all: ['proxy-pool'] as const,
  stats: ['proxy-pool', 'stats'] as const,
  details: (limit: number, offset: number) => ['proxy-pool', 'details', limit, offset] as const,
};

export function useCredentials(params: TCredentialListParams) {
  return useQuery({
    queryKey: credentialKeys.list(params),
    queryFn: () => listCredentials(params),
    placeholderData: keepPreviousData,
  });
}

export function useCredentialDetails(id: string) {
  return useQuery({ queryKey: credentialKeys.detail(id), queryFn: () => getCredentialDetailed(id) });
}

export function useProxyPoolStats() {
  return useQuery({ queryKey: proxyPoolKeys.stats, queryFn: getProxyPoolStats });
}

export function useProxyDetails(page: number) {
  const offset = (page - 1) * PROXY_DETAILS_PAGE_SIZE;
  return useQuery({
    queryKey: proxyPoolKeys.details(PROXY_DETAILS_PAGE_SIZE, offset),
    queryFn: () => listProxyDetails(PROXY_DETAILS_PAGE_SIZE, offset),
    placeholderData: keepPreviousData,
  });
}

/** After any change: the lists, the details and the proxy pool may all be out of date. */
function useInvalidateAll() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: credentialKeys.all }),
      queryClient.invalidateQueries({ queryKey: proxyPoolKeys.all }),
    ]);
}

/** The server answered that the credential is not there: deleted elsewhere since the list was loaded. */
export function isCredentialGone(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}

/**
 * After a change the server refused with 404: the credential is gone, so the lists (still showing it),
 * its details and the proxy pool are out of date. Other failures change nothing.
 */
function useReloadIfGone() {
  const invalidate = useInvalidateAll();
  return async (error: unknown) => {
    if (isCredentialGone(error)) await invalidate();
  };
}

export function useCreateCredential() {
  const invalidate = useInvalidateAll();
  return useMutation({
    mutationFn: (body: TCreateCredentialRequest) => createCredential(body),
    onSuccess: invalidate,
  });
}

export function useUpdateCredential() {
  const invalidate = useInvalidateAll();
  const reloadIfGone = useReloadIfGone();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: TUpdateCredentialRequest }) => updateCredential(id, body),
    onSuccess: invalidate,
    onError: reloadIfGone,
  });
}

export function useDeleteCredential() {
  const queryClient = useQueryClient();
  const invalidate = useInvalidateAll();
  const reloadIfGone = useReloadIfGone();
  return useMutation({
    mutationFn: (id: string) => deleteCredential(id),
    onSuccess: async (_data, id) => {
      queryClient.removeQueries({ queryKey: credentialKeys.detail(id) });
      await invalidate();
    },
    onError: reloadIfGone,
  });
}

export function useToggleCredential() {
  const invalidate = useInvalidateAll();
  const reloadIfGone = useReloadIfGone();
  return useMutation({
    mutationFn: ({ id, enabled }: { id: string; enabled: boolean }) => setCredentialEnabled(id, enabled),
    onSuccess: invalidate,
    onError: reloadIfGone,
  });
}

export function useTestConnection(id: string) {
  const invalidate = useInvalidateAll();
  // The test is a real request: counters, last use and proxy health change with it.
  return useMutation({ mutationFn: () => testCredentialConnection(id), onSettled: invalidate });
}

export function useReplaceProxy(id: string) {
  const queryClient = useQueryClient();
  const reloadIfGone = useReloadIfGone();
  return useMutation({
    mutationFn: () => replaceCredentialProxy(id),
    onSuccess: async (detailed: TCredentialDetailed) => {
      queryClient.setQueryData(credentialKeys.detail(id), detailed);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: credentialKeys.lists }),
        queryClient.invalidateQueries({ queryKey: proxyPoolKeys.all }),
      ]);
    },
    onError: reloadIfGone,
  });
}
