import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { DM_TEXTS, type TDmGenerationStatus, type TDmState } from '@threadreach/contract';
import { ApiError } from '../../../lib/api-error';
import { useRunPolling, type TRunTexts } from '../../../lib/run-polling';
import {
  deleteDm,
  generateDm,
  getGenerateAllStatus,
  listDms,
  regenerateDm,
  startGenerateAllDms,
  updateDms,
  type TDmLead,
  type TDmPage,
} from '../api/dms.api';

/** DMs per page of step 4's list. */
export const DMS_PAGE_SIZE = 20;

export interface TDmListFilter {
  search: string;
  state: TDmState | null;
}
const NO_FILTER: TDmListFilter = { search: '', state: null };

export const dmKeys = {
  /** Every project's DMs: what the workspace's do-not-contact list says of their recipients. */
  everyProject: ['dms'] as const,
  all: (projectId: string) => ['dms', projectId] as const,
  list: (projectId: string, page: TDmPage) => ['dms', projectId, page] as const,
};

/** Texts of spec section 8 for "Generate All DMs". */
export const GENERATE_ALL_TEXTS: TRunTexts = {
  failed: (error) => `${DM_TEXTS.generateFailed}: ${error}`,
  timeout: 'Generation timeout - please refresh and check status',
  checkFailed: 'Error checking generation status',
};

/** Step 4's list, a page at a time, of the DMs to names containing `filter.search` and in `filter.state`. */
export function useDms(projectId: string, page: number, filter: TDmListFilter = NO_FILTER) {
  const p = {
    limit: DMS_PAGE_SIZE,
    offset: (page - 1) * DMS_PAGE_SIZE,
    search: filter.search,
    state: filter.state,
  };
  return useQuery({
    queryKey: dmKeys.list(projectId, p),
    queryFn: () => listDms(projectId, p),
    placeholderData: keepPreviousData,
  });
}

function useReloadDms(projectId: string) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: dmKeys.all(projectId) });
}

/** A 404: the DM is gone (deleted in another tab, say). */
export function isDmGone(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}

/** Saves edited texts (one DM or several); the list reloads, also when a DM turns out to be gone. */
export function useSaveDms(projectId: string) {
  const reload = useReloadDms(projectId);
  return useMutation({
    mutationFn: updateDms,
    onSuccess: () => reload(),
    onError: (error) => void (isDmGone(error) && reload()),
  });
}

export function useDeleteDm(projectId: string) {
  const reload = useReloadDms(projectId);
  return useMutation({
    mutationFn: deleteDm,
    onSuccess: () => void reload(),
    onError: (error) => void (isDmGone(error) && reload()),
  });
}

export function useRegenerateDm(projectId: string) {
  const reload = useReloadDms(projectId);
  return useMutation({
    mutationFn: regenerateDm,
    onSuccess: () => reload(),
    onError: (error) => void (isDmGone(error) && reload()),
  });
}

/** A DM for one post, comment or profile of the results tabs; the DM list reloads. */
export function useGenerateDm(projectId: string) {
  const reload = useReloadDms(projectId);
  return useMutation({
    mutationFn: (lead: TDmLead) => generateDm(projectId, lead),
    onSuccess: () => void reload(),
  });
}

/** "Generate All DMs": start it, follow it (the list reloads as DMs arrive) until it completes or fails. */
export function useGenerateAllDms(projectId: string, onCompleted: (status: TDmGenerationStatus) => void) {
  const reload = useReloadDms(projectId);
  const polling = useRunPolling<TDmGenerationStatus>({
    fetchStatus: () => getGenerateAllStatus(projectId),
    runningStatus: 'generating',
    texts: GENERATE_ALL_TEXTS,
    onCompleted: (status) => {
      void reload();
      onCompleted(status);
    },
  });
  const start = useMutation({ mutationFn: () => startGenerateAllDms(projectId) });
  return { polling, start, reload };
}
