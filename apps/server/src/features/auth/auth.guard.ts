import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  highestRank,
  isAdmin,
  isReadOnly,
  RANK_ADMIN,
  RANK_MODERATOR,
  RANK_READONLY,
  ZUuid,
  type TScopeKind,
} from '@threadreach/contract';
import type { Clock } from '../../clock';
import type { Config } from '../../config/config';
import { endpointOf, rawIdValue } from '../../http/endpoints';
import { AppError, forbidden, notFound, unauthorized } from '../../http/errors';
import { verifyAccessToken, type AuthUser } from './tokens';

declare module 'fastify' {
  interface FastifyRequest {
    user: AuthUser | null;
  }
}

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const [scheme, token] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && token ? token : null;
}

/** The signed-in user, or 401. Routes whose scope is not public always have one. */
export function requireUser(request: { user: AuthUser | null }): AuthUser {
  if (!request.user) throw unauthorized();
  return request.user;
}

/** What a scope asks beyond a signed-in account with a role: moderator and admin routes, their rank. */
const RANK_REQUIRED: Partial<Record<TScopeKind, { rank: number; detail: string }>> = {
  moderator: { rank: RANK_MODERATOR, detail: 'This action is restricted to MODERATOR or ADMIN roles.' },
  admin: { rank: RANK_ADMIN, detail: 'This action is restricted to ADMIN roles.' },
};

export const SUBSCRIPTION_REQUIRED_DETAIL =
  'An active subscription is required to work on projects: this account has a profiles_limit of 0.';

/**
 * Authentication and the role part of each route's declared scope: a bearer token on every route that is
 * not public, the rank the scope names, READONLY accounts refused where the scope writes, and a `self` id
 * that must be the caller's own (admins: anyone's; others get the same 404 as for a user that does not
 * exist). The subscription gate on project writes follows in the project scope, which reads the plan.
 */
export function registerAuthGuard(app: FastifyInstance, config: Config, clock: Clock) {
  app.decorateRequest('user', null);

  app.addHook('onRequest', async (request) => {
    const endpoint = endpointOf(request);
    if (!endpoint) return;
    const isPublic = endpoint.scope.kind === 'public';
    const token = bearerToken(request);
    if (!token) {
      if (isPublic) return;
      throw unauthorized();
    }
    try {
      request.user = await verifyAccessToken(config, token, clock.now());
    } catch {
      if (isPublic) return;
      throw new AppError(401, 'invalid_token', 'Invalid or expired token.');
    }
  });

  app.addHook('preValidation', async (request) => {
    const scope = endpointOf(request)?.scope;
    if (!scope || scope.kind === 'public') return;
    const user = requireUser(request);
    const rank = highestRank(user.roles);
    if (rank < RANK_READONLY) {
      throw forbidden('Your account has no role that gives access to Threadreach.', 'no_role');
    }
    const required = RANK_REQUIRED[scope.kind];
    if (required && rank < required.rank) throw forbidden(required.detail, 'insufficient_role');
    if (scope.access === 'write' && isReadOnly(user.roles)) {
      throw forbidden('READONLY access: your account cannot modify data.', 'read_only');
    }
    if (scope.kind === 'user' && scope.self) {
      const id = rawIdValue(request, scope.self);
      const valid = typeof id === 'string' && ZUuid.safeParse(id).success;
      if (!valid || (id !== user.id && !isAdmin(user.roles))) throw notFound('User not found');
    }
  });
}
