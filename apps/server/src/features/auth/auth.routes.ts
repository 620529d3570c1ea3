import type {} from '@fastify/cookie';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { authEndpoints as e, SESSION_HINT_COOKIE } from '@threadreach/contract';
import { route } from '../../http/endpoints';
import { AppError } from '../../http/errors';
import { refuseCrossSite } from '../../http/security';
import { requireUser } from './auth.guard';
import {
  completeSso,
  endSession,
  loginWithV3,
  presentSession,
  presentUser,
  refreshAfterSubscription,
  refreshSession,
  ssoReturnLocation,
  startSso,
  type Session,
} from './auth.service';
import type { SsoClient } from './sso.client';

export const REFRESH_COOKIE = 'tr_refresh';
const COOKIE_PATH = '/api/v1/auth';

export const authRoutes = (sso: SsoClient) =>
  async function authRoutesPlugin(app: FastifyInstance) {
    const { ctx } = app;
    const secureCookie = ctx.config.publicUrl.startsWith('https://');

    // The clearing cookie carries the same attributes as the one it replaces.
    const cookieAttributes = {
      httpOnly: true,
      secure: secureCookie,
      sameSite: 'strict',
      path: COOKIE_PATH,
    } as const;

    // Readable by the page, for the whole site: it tells the page a session may be restored.
    const hintAttributes = { secure: secureCookie, sameSite: 'strict', path: '/' } as const;

    function setRefreshCookie(reply: FastifyReply, session: Session) {
      reply.setCookie(REFRESH_COOKIE, session.refreshToken, {
        ...cookieAttributes,
        expires: session.refreshExpiresAt,
      });
      reply.setCookie(SESSION_HINT_COOKIE, '1', { ...hintAttributes, expires: session.refreshExpiresAt });
    }

    function clearSessionCookies(reply: FastifyReply) {
      reply.clearCookie(REFRESH_COOKIE, cookieAttributes);
      reply.clearCookie(SESSION_HINT_COOKIE, hintAttributes);
    }

    // Every POST here reads the refresh cookie: only pages of this application may send one.
    app.addHook('onRequest', async (request) => {
      if (request.method !== 'GET' && request.method !== 'HEAD')
        refuseCrossSite(request, ctx.config.publicUrl);
    });

    route(app, e.ssoStart, async (request) =>
      startSso(ctx, sso, request.query.redirect_to, request.query.prompt),
    );

    route(app, e.ssoReturn, async (request, reply) => {
      const raw = request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '';
      return reply.redirect(await ssoReturnLocation(ctx, raw));
    });

    route(app, e.callback, async (request, reply) => {
      const { session, redirectUrl } = await completeSso(ctx, sso, request.query.ver);
      setRefreshCookie(reply, session);
      return presentSession(session, redirectUrl);
    });

    route(app, e.refreshWithToken, async (request, reply) => {
      let session: Session;
      try {
        session = await refreshSession(ctx, request.cookies[REFRESH_COOKIE]);
      } catch (error) {
        // A session refused for good is not hinted at again; one that failed for a moment still may be.
        if (error instanceof AppError && error.statusCode === 401) {
          reply.clearCookie(SESSION_HINT_COOKIE, hintAttributes);
        }
        throw error;
      }
      setRefreshCookie(reply, session);
      return presentSession(session);
    });

    route(app, e.logout, async (request, reply) => {
      await endSession(ctx, request.cookies[REFRESH_COOKIE]);
      clearSessionCookies(reply);
    });

    route(app, e.refreshAfterSubscription, async (request) =>
      presentSession(
        await refreshAfterSubscription(ctx, requireUser(request).id, request.cookies[REFRESH_COOKIE]),
      ),
    );

    route(app, e.v3Login, async (request, reply) => {
      const session = await loginWithV3(ctx, request.query.v3);
      setRefreshCookie(reply, session);
      return { token: session.accessToken, user: presentUser(session.user), redirect_url: '/' };
    });
  };
