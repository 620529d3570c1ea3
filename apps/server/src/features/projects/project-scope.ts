import type { FastifyInstance, FastifyRequest } from 'fastify';
import { endpointKey, ZUuid, type TAccess, type TScope } from '@threadreach/contract';
import type { Db } from '../../db/client';
import { endpointOf, rawIdValue } from '../../http/endpoints';
import { forbidden, notFound, projectNotFound } from '../../http/errors';
import { requireUser, requiresSubscription, SUBSCRIPTION_REQUIRED_DETAIL } from '../auth';
import type { ProjectWithOwner } from './projects.repository';
import { getAccessibleProject } from './projects.service';

declare module 'fastify' {
  interface FastifyRequest {
    /** The project the request names (directly or through a resource it owns), already checked. */
    project: ProjectWithOwner | null;
  }
}

/**
 * A resource that lives inside a project (a keyword, a post, a DM, an account): `child` scopes name it, and
 * its loader tells which project owns each id. Ids it does not know are left out of the answer.
 */
export interface ChildResource {
  name: string;
  /** The 404 detail for an id the caller may not reach, e.g. 'Keyword not found'. */
  notFoundDetail: string;
  ownersOf(db: Db, ids: string[]): Promise<Map<string, string>>;
}

function idsOf(value: unknown): string[] | null {
  const list = Array.isArray(value) ? value : [value];
  if (list.length === 0) return null;
  for (const id of list) if (typeof id !== 'string' || !ZUuid.safeParse(id).success) return null;
  return [...new Set(list as string[])];
}

async function checkChild(
  db: Db,
  request: FastifyRequest,
  resource: ChildResource,
  ids: string[] | null,
  namedProject: unknown,
  access: TAccess,
  adminWrites: boolean,
): Promise<ProjectWithOwner> {
  const denied = () => notFound(resource.notFoundDetail);
  if (!ids) throw denied();
  const owners = await resource.ownersOf(db, ids);
  const projectIds = new Set(ids.map((id) => owners.get(id)));
  const [owner] = projectIds;
  if (projectIds.size !== 1 || !owner) throw denied();
  // Through a project the caller does own, a resource of another project is still not there.
  if (namedProject !== undefined && namedProject !== owner) throw denied();
  try {
    return await getAccessibleProject(db, requireUser(request), owner, access, { adminWrites });
  } catch (error) {
    if ((error as { statusCode?: number }).statusCode === 404) throw denied();
    throw error;
  }
}

/**
 * A USER works on projects only while a plan gives them profiles (spec §6): without one, nothing that
 * searches, drafts or sends runs on their projects, whatever calls the API. Deleting stays open: a customer
 * who has left may still remove their projects, accounts and DMs. The plan is the one read with the
 * project, so a lapse (or a new plan) takes hold at once rather than when the caller's token is renewed; a
 * route naming no project goes by the token.
 */
function requirePlan(request: FastifyRequest, access: TAccess, project: ProjectWithOwner | null) {
  if (access !== 'write' || request.method === 'DELETE') return;
  const caller = requireUser(request);
  const profilesLimit = project ? project.ownerProfilesLimit : caller.profilesLimit;
  if (requiresSubscription({ roles: caller.roles, profilesLimit })) {
    throw forbidden(SUBSCRIPTION_REQUIRED_DETAIL, 'subscription_required');
  }
}

/**
 * Tenant isolation in one place, from each route's declared scope: before validation runs, the project a
 * request names, or the project owning the resources it names, must be the caller's (admins may read
 * others'). Otherwise the answer is the same 404 as for something that does not exist, whatever else is
 * wrong with the request. A `child` route whose resource has no loader stops the server at start.
 */
export function registerProjectScope(app: FastifyInstance, db: Db, resources: readonly ChildResource[]) {
  const byName = new Map(resources.map((r) => [r.name, r]));
  app.decorateRequest('project', null);
  app.addHook('onRoute', (options) => {
    const scope = options.config?.endpoint?.scope;
    if (scope?.kind === 'child' && !byName.has(scope.resource)) {
      throw new Error(
        `${endpointKey(options.config!.endpoint!)} names resource '${scope.resource}', which has no owner loader`,
      );
    }
  });
  /** The project the request reaches under its scope, checked; null for a route naming none. */
  const scopedProject = async (
    request: FastifyRequest,
    scope: Extract<TScope, { kind: 'project' | 'child' }>,
  ): Promise<ProjectWithOwner | null> => {
    if (scope.kind === 'project') {
      const id = rawIdValue(request, scope.project);
      // Naming no project, the route serves only the caller's own data (its handler filters by user).
      if (id === undefined && scope.optional) return null;
      if (typeof id !== 'string' || !ZUuid.safeParse(id).success) throw projectNotFound();
      return getAccessibleProject(db, requireUser(request), id, scope.access, {
        adminWrites: scope.adminWrites === true,
      });
    }
    const namedProject = scope.project ? rawIdValue(request, scope.project) : undefined;
    if (scope.project && (typeof namedProject !== 'string' || !ZUuid.safeParse(namedProject).success)) {
      throw projectNotFound();
    }
    const rawIds = rawIdValue(request, scope.id);
    // A list naming nothing reaches no resource: the body's own check says so, once a named project is.
    if (Array.isArray(rawIds) && rawIds.length === 0) {
      if (typeof namedProject !== 'string') return null;
      return getAccessibleProject(db, requireUser(request), namedProject, scope.access, {
        adminWrites: scope.adminWrites === true,
      });
    }
    if (rawIds === undefined && scope.optionalId && typeof namedProject === 'string') {
      return getAccessibleProject(db, requireUser(request), namedProject, scope.access);
    }
    return checkChild(
      db,
      request,
      byName.get(scope.resource)!,
      idsOf(rawIds),
      namedProject,
      scope.access,
      scope.adminWrites === true,
    );
  };
  app.addHook('preValidation', async (request) => {
    const scope = endpointOf(request)?.scope;
    if (scope?.kind !== 'project' && scope?.kind !== 'child') return;
    request.project = await scopedProject(request, scope);
    requirePlan(request, scope.access, request.project);
  });
}

/** The project checked by the scope; routes with a `project` or `child` scope always have one. */
export function requireProject(request: { project: ProjectWithOwner | null }): ProjectWithOwner {
  if (!request.project) throw projectNotFound();
  return request.project;
}
