import type {
  TCreateProjectRequest,
  TProject,
  TProjectList,
  TUpdateProjectRequest,
} from '@threadreach/contract';
import { PAGE_LIMIT_MAX } from '@threadreach/contract';
import { api } from '../../../lib/api-client';

export function listProjects(limit: number = PAGE_LIMIT_MAX, offset = 0): Promise<TProjectList> {
  return api.get<TProjectList>('/projects', { query: { limit, offset } });
}

export function createProject(body: TCreateProjectRequest): Promise<TProject> {
  return api.post<TProject>('/projects', body);
}

export function getProject(projectId: string): Promise<TProject> {
  return api.get<TProject>(`/projects/${encodeURIComponent(projectId)}`);
}

export function updateProject(projectId: string, body: TUpdateProjectRequest): Promise<TProject> {
  return api.put<TProject>(`/projects/${encodeURIComponent(projectId)}`, body);
}

export function deleteProject(projectId: string): Promise<void> {
  return api.delete(`/projects/${encodeURIComponent(projectId)}`);
}
