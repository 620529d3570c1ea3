import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ZUuid } from '@threadreach/contract';
import { projectNotFound } from './errors';
import { getAccessibleProject, type ProjectWithOwner } from '../features/projects/projects.service';

declare module 'fastify' {
  interface FastifyRequest {
    /** The project the request names, already checked against the caller. */
    project: ProjectWithOwner | null;
  }
}

/** Where a request may name a project: path `:projectId`, query `project_id`, body `project_id`. */
export function projectIdsOf(request: { params: unknown; query: unknown; body: unknown }): unknown[] {
  const ids: unknown[] = [];
  const pick = (source: unknown, key: string) => {
    if (source && typeof source === 'object' && key in source)
      ids.push((source as Record<string, unknown>)[key]);
  };
  pick(request.params, 'projectId');
  pick(request.query, 'project_id');
  pick(request.body, 'project_id');
  return ids;
}

/**
 * Tenant isolation in one place: before validation runs, any project a request names must belong
 * to the caller (admins may read others'). Otherwise the answer is the same 404 as for a project that
 * does not exist, whatever the route and whatever else is wrong with the request.
 */
export function registerProjectScope(app: FastifyInstance) {
  app.decorateRequest('project', null);
  app.addHook('preValidation', async (request) => {
    const user = request.user;
    if (!user) return;
    const ids = [...new Set(projectIdsOf(request))];
    for (const id of ids) {
      if (typeof id !== 'string' || !ZUuid.safeParse(id).success) throw projectNotFound();
      request.project = await getAccessibleProject(app.ctx.db, user, id, request.method);
    }
  });
}

/** The project checked by the scope hook; routes with `:projectId` always have one. */
export function requireProject(request: FastifyRequest): ProjectWithOwner {
  if (!request.project) throw projectNotFound();
  return request.project;
}
