import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TApproveSubredditsRequest, TSubredditGenerationStatus } from '@threadreach/contract';
import { useRunPolling, type TRunTexts } from '../../../lib/run-polling';
import {
  addSubredditsBulk,
  approveSubreddits,
  getSubredditGenerationStatus,
  listSubreddits,
  startSubredditGeneration,
} from '../api/subreddits.api';

export const subredditKeys = {
  list: (projectId: string) => ['subreddits', projectId] as const,
};

/** Texts of spec section 8 for subreddit generation. */
export const GENERATION_TEXTS: TRunTexts = {
  failed: (error) => `Subreddit generation failed: ${error}`,
  timeout: 'Generation timeout - please refresh and check status',
  checkFailed: 'Error checking generation status',
};

export function useSubreddits(projectId: string) {
  return useQuery({ queryKey: subredditKeys.list(projectId), queryFn: () => listSubreddits(projectId) });
}

function useReloadSubreddits(projectId: string) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: subredditKeys.list(projectId) });
}

/** Subreddit generation: start it, and follow it until it completes (the list reloads) or fails. */
export function useSubredditGeneration(
  projectId: string,
  options: { watchFirst: boolean; onCompleted: (status: TSubredditGenerationStatus) => void },
) {
  const reload = useReloadSubreddits(projectId);
  const polling = useRunPolling<TSubredditGenerationStatus>({
    fetchStatus: () => getSubredditGenerationStatus(projectId),
    runningStatus: 'generating',
    texts: GENERATION_TEXTS,
    watchFirst: options.watchFirst,
    onCompleted: (status) => {
      void reload();
      options.onCompleted(status);
    },
  });
  const start = useMutation({ mutationFn: () => startSubredditGeneration(projectId) });
  return { polling, start };
}

export function useAddSubredditsBulk(projectId: string) {
  const reload = useReloadSubreddits(projectId);
  return useMutation({
    mutationFn: (names: string[]) => addSubredditsBulk(projectId, names),
    onSuccess: () => void reload(),
  });
}

export function useApproveSubreddits(projectId: string) {
  const reload = useReloadSubreddits(projectId);
  return useMutation({
    mutationFn: (body: TApproveSubredditsRequest) => approveSubreddits(projectId, body),
    onSuccess: () => void reload(),
  });
}
