import {
  SUBREDDITS_PER_PROJECT_MAX,
  subredditsEndpoints,
  type TAddSubredditsBulkResponse,
  type TApproveSubredditsRequest,
  type TApproveSubredditsResponse,
  type TRunStarted,
  type TSubredditGenerationStatus,
  type TSubredditList,
} from '@threadreach/contract';
import { call } from '../../../lib/api-client';

/** Every subreddit of the project fits in one page. */
export function listSubreddits(projectId: string): Promise<TSubredditList> {
  return call(subredditsEndpoints.list, {
    params: { projectId },
    query: { limit: SUBREDDITS_PER_PROJECT_MAX, offset: 0 },
  });
}

export function startSubredditGeneration(projectId: string): Promise<TRunStarted> {
  return call(subredditsEndpoints.generate, { params: { projectId } });
}

export function getSubredditGenerationStatus(projectId: string): Promise<TSubredditGenerationStatus> {
  return call(subredditsEndpoints.status, { params: { projectId } });
}

export function addSubredditsBulk(projectId: string, names: string[]): Promise<TAddSubredditsBulkResponse> {
  return call(subredditsEndpoints.addBulk, { params: { projectId }, body: { subreddits: names } });
}

export function approveSubreddits(
  projectId: string,
  body: TApproveSubredditsRequest,
): Promise<TApproveSubredditsResponse> {
  return call(subredditsEndpoints.approve, { params: { projectId }, body });
}
