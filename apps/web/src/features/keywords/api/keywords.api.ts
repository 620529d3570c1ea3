import {
  KEYWORDS_PER_PROJECT_MAX,
  keywordsEndpoints,
  type TApproveKeywordsRequest,
  type TApproveKeywordsResponse,
  type TGenerateKeywordsResponse,
  type TKeywordList,
} from '@threadreach/contract';
import { call } from '../../../lib/api-client';

/** Every keyword of the project fits in one page. */
export function listKeywords(projectId: string): Promise<TKeywordList> {
  return call(keywordsEndpoints.list, {
    params: { projectId },
    query: { limit: KEYWORDS_PER_PROJECT_MAX, offset: 0 },
  });
}

export function generateKeywords(projectId: string): Promise<TGenerateKeywordsResponse> {
  return call(keywordsEndpoints.generate, { params: { projectId } });
}

export function approveKeywords(
  projectId: string,
  body: TApproveKeywordsRequest,
): Promise<TApproveKeywordsResponse> {
  return call(keywordsEndpoints.approve, { params: { projectId }, body });
}
