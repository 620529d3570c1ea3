import {
  ENHANCED_SEARCH_LIMIT,
  leadsEndpoints,
  projectsEndpoints,
  searchEndpoints,
  type TCommentList,
  type TLeadSort,
  type TLeadsDeleted,
  type TMessageResponse,
  type TPostList,
  type TProfileList,
  type TProject,
  type TRunStarted,
  type TSearchStatus,
  type TUpdateWebhookRequest,
  type TWebhook,
} from '@threadreach/contract';
import { call, download } from '../../../lib/api-client';

export interface TLeadPage {
  limit: number;
  offset: number;
  minScore: number;
  sort: TLeadSort;
}

/** The query every results list takes for a page. */
function pageQuery(page: TLeadPage) {
  return { limit: page.limit, offset: page.offset, min_score: page.minScore, sort: page.sort };
}

export function listPosts(projectId: string, page: TLeadPage): Promise<TPostList> {
  return call(leadsEndpoints.posts, { query: { project_id: projectId, ...pageQuery(page) } });
}

export function listComments(projectId: string, page: TLeadPage): Promise<TCommentList> {
  return call(leadsEndpoints.comments, {
    params: { projectId },
    query: pageQuery(page),
  });
}

export function listProfiles(projectId: string, page: TLeadPage): Promise<TProfileList> {
  return call(leadsEndpoints.profiles, {
    params: { projectId },
    query: pageQuery(page),
  });
}

export function deletePost(postId: string): Promise<void> {
  return call(leadsEndpoints.deletePost, { params: { postId } });
}

export function deleteComment(projectId: string, commentId: string): Promise<void> {
  return call(leadsEndpoints.deleteComment, { params: { projectId, commentId } });
}

export function deleteProfile(projectId: string, profileId: string): Promise<void> {
  return call(leadsEndpoints.deleteProfile, { params: { projectId, profileId } });
}

/** Deletes all of a results list: every lead it shows at `minScore`, on every page. */
export function deleteAllPosts(projectId: string, minScore: number): Promise<TLeadsDeleted> {
  return call(leadsEndpoints.deleteAllPosts, { query: { project_id: projectId, min_score: minScore } });
}

export function deleteAllComments(projectId: string, minScore: number): Promise<TLeadsDeleted> {
  return call(leadsEndpoints.deleteAllComments, { params: { projectId }, query: { min_score: minScore } });
}

export function deleteAllProfiles(projectId: string, minScore: number): Promise<TLeadsDeleted> {
  return call(leadsEndpoints.deleteAllProfiles, { params: { projectId }, query: { min_score: minScore } });
}

/** Which kinds of leads a search looks for (step 4's search settings). */
export interface TSearchKinds {
  posts: boolean;
  comments: boolean;
}

export function startSearch(projectId: string, kinds: TSearchKinds): Promise<TRunStarted> {
  return call(searchEndpoints.enhanced, {
    params: { projectId },
    body: {
      include_posts: kinds.posts,
      include_comments: kinds.comments,
      include_profiles: false,
      persist_posts: true,
      limit: ENHANCED_SEARCH_LIMIT,
    },
  });
}

export function getSearchStatus(projectId: string): Promise<TSearchStatus> {
  return call(searchEndpoints.enhancedStatus, { params: { projectId } });
}

/** Keyword filtering off means every item of the approved subreddits is a lead. */
export function setWithoutKeywords(projectId: string, withoutKeywords: boolean): Promise<TProject> {
  return call(projectsEndpoints.update, {
    params: { projectId },
    body: { without_keywords: withoutKeywords },
  });
}

/** The project's leads as CSV, with the file name the server gives; `onProgress` hears the bytes received. */
export function exportLeadsCsv(
  projectId: string,
  onProgress: (bytes: number) => void,
): Promise<{ content: Blob; fileName: string | null }> {
  return download(leadsEndpoints.exportCsv, { params: { projectId } }, onProgress);
}

export function getWebhook(projectId: string): Promise<TWebhook> {
  return call(leadsEndpoints.getWebhook, { params: { projectId } });
}

export function updateWebhook(projectId: string, body: TUpdateWebhookRequest): Promise<TWebhook> {
  return call(leadsEndpoints.updateWebhook, { params: { projectId }, body });
}

export function testWebhook(projectId: string): Promise<TMessageResponse> {
  return call(leadsEndpoints.testWebhook, { params: { projectId } });
}
