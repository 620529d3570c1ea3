import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TAddDoNotContactRequest, TImportDoNotContactRequest } from '@threadreach/contract';
import {
  addDoNotContact,
  importDoNotContact,
  listDoNotContact,
  removeDoNotContact,
  type TDoNotContactPage,
} from '../api/do-not-contact.api';
import { dmKeys } from '../../dms';

export const DO_NOT_CONTACT_PAGE_SIZE = 20;

export const doNotContactKeys = {
  all: ['do-not-contact'] as const,
  list: (page: TDoNotContactPage) => ['do-not-contact', page] as const,
};

export function useDoNotContactList(page: number, search: string, enabled: boolean) {
  const p: TDoNotContactPage = {
    limit: DO_NOT_CONTACT_PAGE_SIZE,
    offset: (page - 1) * DO_NOT_CONTACT_PAGE_SIZE,
    search,
  };
  return useQuery({
    queryKey: doNotContactKeys.list(p),
    queryFn: () => listDoNotContact(p),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/**
 * The list and every DM read again once a change is answered: a DM says whether its recipient is on the
 * list. Hook-level, so it runs even when the list was closed before the answer came.
 */
function useReload() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: doNotContactKeys.all }),
      queryClient.invalidateQueries({ queryKey: dmKeys.everyProject }),
    ]);
}

export function useAddDoNotContact() {
  const reload = useReload();
  return useMutation({
    mutationFn: (body: TAddDoNotContactRequest) => addDoNotContact(body),
    onSuccess: () => void reload(),
  });
}

export function useRemoveDoNotContact() {
  const reload = useReload();
  return useMutation({
    mutationFn: (username: string) => removeDoNotContact(username),
    onSuccess: () => void reload(),
  });
}

export function useImportDoNotContact() {
  const reload = useReload();
  return useMutation({
    mutationFn: (body: TImportDoNotContactRequest) => importDoNotContact(body),
    onSuccess: () => void reload(),
  });
}
