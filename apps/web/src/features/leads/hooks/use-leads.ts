import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TLeadSort, TProject, TProjectList, TSearchStatus } from '@threadreach/contract';
import { useRunPolling, type TRunTexts } from '../../../lib/run-polling';
import { projectKeys } from '../../projects';
import {
  deleteAllComments,
  deleteAllPosts,
  deleteAllProfiles,
  deleteComment,
  deletePost,
  deleteProfile,
  getSearchStatus,
  listComments,
  listPosts,
  listProfiles,
  setWithoutKeywords,
  startSearch,
  type TLeadPage,
  type TSearchKinds,
} from '../api/leads.api';

/** Rows per page of each results tab. */
export const LEADS_PAGE_SIZE = 20;

export type TLeadKind = 'posts' | 'comments' | 'users';

export const leadKeys = {
  all: (projectId: string) => ['leads', projectId] as const,
  list: (projectId: string, kind: TLeadKind, page: TLeadPage) => ['leads', projectId, kind, page] as const,
};

/** Texts of spec section 8 for searches. */
export const SEARCH_TEXTS: TRunTexts = {
  failed: (error) => `Search failed: ${error}`,
  timeout: 'Search timeout - please refresh and check status',
  checkFailed: 'Error checking search status',
};

/**
 * An empty list asks again this often: discovery finds new posts and comments every minute, and a
 * customer waiting on "No posts found yet" should see the first ones without pressing anything. A list
 * with rows waits for the customer (Search, a delete, another page) rather than moving under their cursor.
 */
export const EMPTY_LEADS_REFRESH_MS = 15_000;

const whileEmpty = (query: { state: { data?: { total: number } } }) =>
  query.state.data?.total === 0 ? EMPTY_LEADS_REFRESH_MS : false;

function pageOf(page: number, minScore: number, sort: TLeadSort): TLeadPage {
  return { limit: LEADS_PAGE_SIZE, offset: (page - 1) * LEADS_PAGE_SIZE, minScore, sort };
}

export function usePosts(projectId: string, page: number, minScore: number, sort: TLeadSort) {
  const p = pageOf(page, minScore, sort);
  return useQuery({
    queryKey: leadKeys.list(projectId, 'posts', p),
    queryFn: () => listPosts(projectId, p),
    placeholderData: keepPreviousData,
    refetchInterval: whileEmpty,
  });
}

export function useComments(projectId: string, page: number, minScore: number, sort: TLeadSort) {
  const p = pageOf(page, minScore, sort);
  return useQuery({
    queryKey: leadKeys.list(projectId, 'comments', p),
    queryFn: () => listComments(projectId, p),
    placeholderData: keepPreviousData,
    refetchInterval: whileEmpty,
  });
}

export function useProfiles(projectId: string, page: number, minScore: number, sort: TLeadSort) {
  const p = pageOf(page, minScore, sort);
  return useQuery({
    queryKey: leadKeys.list(projectId, 'users', p),
    queryFn: () => listProfiles(projectId, p),
    placeholderData: keepPreviousData,
    refetchInterval: whileEmpty,
  });
}

function useReloadLeads(projectId: string) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: leadKeys.all(projectId) });
}

/** Deletes one lead of any kind; the lists reload. */
export function useDeleteLead(projectId: string) {
  const reload = useReloadLeads(projectId);
  return useMutation({
    mutationFn: ({ kind, id }: { kind: TLeadKind; id: string }) => {
      if (kind === 'posts') return deletePost(id);
      if (kind === 'comments') return deleteComment(projectId, id);
      return deleteProfile(projectId, id);
    },
    onSuccess: () => void reload(),
  });
}

/** Deletes all of one results list at a minimum score; the lists reload. */
export function useDeleteAllLeads(projectId: string) {
  const reload = useReloadLeads(projectId);
  return useMutation({
    mutationFn: ({ kind, minScore }: { kind: TLeadKind; minScore: number }) => {
      if (kind === 'posts') return deleteAllPosts(projectId, minScore);
      if (kind === 'comments') return deleteAllComments(projectId, minScore);
      return deleteAllProfiles(projectId, minScore);
    },
    onSettled: () => void reload(),
  });
}

/** A search now: start it, follow it until it completes (the results reload) or fails. */
export function useSearch(projectId: string, onCompleted: (status: TSearchStatus) => void) {
  const reload = useReloadLeads(projectId);
  const polling = useRunPolling<TSearchStatus>({
    fetchStatus: () => getSearchStatus(projectId),
    runningStatus: 'searching',
    texts: SEARCH_TEXTS,
    onCompleted: (status) => {
      void reload();
      onCompleted(status);
    },
  });
  const start = useMutation({ mutationFn: (kinds: TSearchKinds) => startSearch(projectId, kinds) });
  return { polling, start };
}

/** The keyword-filtering toggle: the project update carrying without_keywords. */
export function useKeywordFiltering(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (withoutKeywords: boolean) => setWithoutKeywords(projectId, withoutKeywords),
    onSuccess: (project: TProject) => {
      queryClient.setQueryData<TProjectList>(projectKeys.all, (list) =>
        list
          ? { ...list, items: list.items.map((p) => (p.id === project.id ? { ...p, ...project } : p)) }
          : list,
      );
    },
  });
}
