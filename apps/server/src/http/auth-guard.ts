import type { FastifyInstance, FastifyRequest } from 'fastify';
import { highestRank, isReadOnly, RANK_USER } from '@threadreach/contract';
import type { Config } from '../config/config';
import { verifyAccessToken, type AuthUser } from '../features/auth/tokens';
import { AppError, forbidden, unauthorized } from './errors';
import { isWriteMethod } from './methods';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** No bearer token needed (sign-in, public configuration, health). */
    public?: boolean;
    /** Lowest role rank allowed (spec section 6); authenticated routes need at least READONLY. */
    minRank?: number;
    /** A write that READONLY accounts may still make (their own sign-out, for example). */
    readOnlyAllowed?: boolean;
  }
  interface FastifyRequest {
    user: AuthUser | null;
  }
}

const RANK_READONLY = 1;

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const [scheme, token] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && token ? token : null;
}

/** The signed-in user, or 401. For use inside route handlers that are public by config. */
export function requireUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw unauthorized();
  return request.user;
}

/**
 * Authentication and role checks for the API: a bearer token on every non-public route,
 * READONLY accounts refused on writes, and each route's minimum rank.
 */
export function registerAuthGuard(app: FastifyInstance, config: Config) {
  app.decorateRequest('user', null);

  app.addHook('onRequest', async (request) => {
    const token = bearerToken(request);
    const routeConfig = request.routeOptions.config;
    if (!token) {
      if (routeConfig.public) return;
      throw unauthorized();
    }
    try {
      request.user = await verifyAccessToken(config, token, app.ctx.clock.now());
    } catch {
      if (routeConfig.public) return;
      throw new AppError(401, 'invalid_token', 'Invalid or expired token.');
    }
  });

  app.addHook('preValidation', async (request) => {
    const routeConfig = request.routeOptions.config;
    const user = request.user;
    if (routeConfig.public || !user) return;
    const rank = highestRank(user.roles);
    if (rank < RANK_READONLY) {
      throw forbidden('Your account has no role that gives access to Threadreach.', 'no_role');
    }
    if (isWriteMethod(request.method) && !routeConfig.readOnlyAllowed && isReadOnly(user.roles)) {
      throw forbidden('READONLY access: your account cannot modify data.', 'read_only');
    }
    const minRank = routeConfig.minRank ?? RANK_READONLY;
    if (rank < minRank) {
      throw forbidden(
        minRank >= 3
          ? 'This action is restricted to MODERATOR or ADMIN roles.'
          : minRank >= RANK_USER
            ? 'This action needs a USER account or higher.'
            : 'You do not have access to this action.',
        'insufficient_role',
      );
    }
  });
}
