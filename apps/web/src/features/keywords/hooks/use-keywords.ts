import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  KEYWORDS_PER_PROJECT_MAX,
  type TApproveKeywordsRequest,
  type TApproveKeywordsResponse,
  type TKeywordList,
} from '@threadreach/contract';
import { approveKeywords, generateKeywords, listKeywords } from '../api/keywords.api';
import { keepDraft } from '../../../lib/use-kept-draft';
import { carryOver, rowsOf, type TKeywordRow } from '../keyword-rows';

/** What the step's editor holds: keyword rows and the three filter lists. */
export interface TKeywordsDraft {
  rows: TKeywordRow[];
  filters: TKeywordList['filters'];
}

export const keywordKeys = {
  list: (projectId: string) => ['keywords', projectId] as const,
};

/**
 * The project's keywords, read afresh each time step 2 opens: step 1's Save & Generate Keywords (or
 * another tab) replaces them, and an editor started from the old list approves keywords that are gone.
 */
export function useKeywords(projectId: string) {
  return useQuery({
    queryKey: keywordKeys.list(projectId),
    queryFn: () => listKeywords(projectId),
    refetchOnMount: 'always',
  });
}

/** Generation replaces the unapproved keywords; the caller reloads the list when it has shown the outcome. */
export function useGenerateKeywords(projectId: string) {
  const queryClient = useQueryClient();
  const mutation = useMutation({ mutationFn: () => generateKeywords(projectId) });
  /**
   * Loads the regenerated list. Unsaved edits (`edited`) are carried over onto it as the editor's kept
   * draft, which the editor, started over from the new list, reads back: Regenerate never drops them.
   */
  const reload = async (edited: TKeywordsDraft | null = null) => {
    if (!edited) return queryClient.invalidateQueries({ queryKey: keywordKeys.list(projectId) });
    const fresh = await listKeywords(projectId);
    const saved = { rows: rowsOf(fresh.items), filters: fresh.filters };
    const values = { rows: carryOver(edited.rows, saved.rows), filters: edited.filters };
    keepDraft('keywords', projectId, saved, values);
    queryClient.setQueryData(keywordKeys.list(projectId), fresh);
  };
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
