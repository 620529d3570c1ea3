import {
  dmsEndpoints,
  type TDmGenerationStatus,
  type TDmList,
  type TDmMessage,
  type TDmMessagesResponse,
  type TDmState,
  type TGenerateDmsResponse,
  type TRunStarted,
} from '@threadreach/contract';
import { call } from '../../../lib/api-client';

export interface TDmPage {
  limit: number;
  offset: number;
  /** Only DMs to names containing it (any case); empty: all. */
  search?: string;
  state?: TDmState | null;
}

export function listDms(projectId: string, page: TDmPage): Promise<TDmList> {
  return call(dmsEndpoints.list, {
    query: {
      project_id: projectId,
      limit: page.limit,
      offset: page.offset,
      ...(page.search ? { search: page.search } : {}),
      ...(page.state ? { state: page.state } : {}),
    },
  });
}

export function updateDms(messages: { id: string; message_content: string }[]): Promise<TDmMessagesResponse> {
  return call(dmsEndpoints.update, { body: { messages } });
}

export function deleteDm(dmId: string): Promise<void> {
  return call(dmsEndpoints.delete, { params: { dmId } });
}

export function regenerateDm(dmId: string): Promise<TDmMessage> {
  return call(dmsEndpoints.regenerate, { params: { dmId } });
}

/** Which lead a DM is written for: a post, a comment or a profile, by its id. */
export type TDmLead = { kind: 'post' | 'comment' | 'profile'; id: string };

export function generateDm(projectId: string, lead: TDmLead): Promise<TGenerateDmsResponse> {
  if (lead.kind === 'post') {
    return call(dmsEndpoints.generateForSelected, { body: { project_id: projectId, post_ids: [lead.id] } });
  }
  const body = { project_id: projectId, id: lead.id };
  if (lead.kind === 'comment') return call(dmsEndpoints.generateFromComment, { body });
  return call(dmsEndpoints.generateFromProfile, { body });
}

export function startGenerateAllDms(projectId: string): Promise<TRunStarted> {
  return call(dmsEndpoints.generateAll, { body: { project_id: projectId } });
}

export function getGenerateAllStatus(projectId: string): Promise<TDmGenerationStatus> {
  return call(dmsEndpoints.generateAllStatus, { query: { project_id: projectId } });
}
