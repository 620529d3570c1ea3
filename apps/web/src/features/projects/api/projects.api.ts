import type {
  TCreateProjectRequest,
  TProject,
  TProjectList,
  TUpdateProjectRequest,
} from '@threadreach/contract';
import { PAGE_LIMIT_MAX, projectsEndpoints } from '@threadreach/contract';
import { call } from '../../../lib/api-client';

export function listProjects(limit: number = PAGE_LIMIT_MAX, offset = 0): Promise<TProjectList> {
  return call(projectsEndpoints.list, { query: { limit, offset } });
}

export function createProject(body: TCreateProjectRequest): Promise<TProject> {
  return call(projectsEndpoints.create, { body });
}

export function getProject(projectId: string): Promise<TProject> {
  return call(projectsEndpoints.get, { params: { projectId } });
}

export function updateProject(projectId: string, body: TUpdateProjectRequest): Promise<TProject> {
  return call(projectsEndpoints.update, { params: { projectId }, body });
}

export function deleteProject(projectId: string): Promise<void> {
  return call(projectsEndpoints.delete, { params: { projectId } });
}
