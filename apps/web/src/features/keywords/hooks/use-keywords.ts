import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  KEYWORDS_PER_PROJECT_MAX,
  type TApproveKeywordsRequest,
  type TApproveKeywordsResponse,
  type TKeywordList,
} from '@threadreach/contract';
import { approveKeywords, generateKeywords, listKeywords } from '../api/keywords.api';

export const keywordKeys = {
  list: (projectId: string) => ['keywords', projectId] as const,
};

export function useKeywords(projectId: string) {
  return useQuery({ queryKey: keywordKeys.list(projectId), queryFn: () => listKeywords(projectId) });
}

/** Generation replaces the unapproved keywords; the caller reloads the list when it has shown the outcome. */
export function useGenerateKeywords(projectId: string) {
  const queryClient = useQueryClient();
  const mutation = useMutation({ mutationFn: () => generateKeywords(projectId) });
  const reload = () => queryClient.invalidateQueries({ queryKey: keywordKeys.list(projectId) });
  return { mutation, reload };
}

/** The list as saved (added keywords now have ids); the step's editor starts over from it. */
export function storeSavedKeywords(
  queryClient: QueryClient,
  projectId: string,
  result: TApproveKeywordsResponse,
): void {
  const list: TKeywordList = {
    items: result.keywords,
    total: result.keywords.length,
    limit: KEYWORDS_PER_PROJECT_MAX,
    offset: 0,
    filters: result.filters,
  };
  queryClient.setQueryData(keywordKeys.list(projectId), list);
}

export function useApproveKeywords(projectId: string) {
  return useMutation({
    mutationFn: (body: TApproveKeywordsRequest) => approveKeywords(projectId, body),
  });
}
