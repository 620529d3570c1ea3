import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZAuthCallbackQuery,
  ZAuthTokenResponse,
  ZRefreshResponse,
  ZSsoStartQuery,
  ZSsoStartResponse,
  ZV3LoginQuery,
  ZV3LoginResponse,
} from '@threadreach/contract';
import { requireUser } from '../../http/auth-guard';
import {
  completeSso,
  endSession,
  loginWithV3,
  presentSession,
  presentUser,
  refreshAfterSubscription,
  refreshSession,
  requiresSubscription,
  ssoReturnLocation,
  startSso,
  SUBSCRIBE_PATH,
  type Session,
} from './auth.service';
import type { SsoClient } from './sso.client';

export const REFRESH_COOKIE = 'tr_refresh';
const COOKIE_PATH = '/api/v1/auth';
const tags = ['auth'];

export const authRoutes = (sso: SsoClient): FastifyPluginAsyncZod =>
  async function authRoutesPlugin(app) {
    const secureCookie = app.ctx.config.publicUrl.startsWith('https://');

    function setRefreshCookie(reply: FastifyReply, session: Session) {
      reply.setCookie(REFRESH_COOKIE, session.refreshToken, {
        httpOnly: true,
        secure: secureCookie,
        sameSite: 'strict',
        path: COOKIE_PATH,
        expires: session.refreshExpiresAt,
      });
    }

    app.get(
      '/auth/sso/start',
      {
        config: { public: true },
        schema: {
          tags,
          summary: "Start single sign-on: the provider's authorize URL",
          querystring: ZSsoStartQuery,
          response: { 200: ZSsoStartResponse },
        },
      },
      async (request) => startSso(app.ctx, sso, request.query.redirect_to),
    );

    app.get(
      '/auth/sso/return',
      {
        config: { public: true },
        schema: {
          tags,
          summary: "The provider's redirect; forwards to the web app's /auth/callback",
          hide: true,
        },
      },
      async (request, reply) => {
        const raw = request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '';
        return reply.redirect(await ssoReturnLocation(app.ctx, raw));
      },
    );

    app.get(
      '/auth/callback',
      {
        config: { public: true },
        schema: {
          tags,
          summary: 'Complete single sign-on with the ver parameter',
          querystring: ZAuthCallbackQuery,
          response: { 200: ZAuthTokenResponse },
        },
      },
      async (request, reply) => {
        const { session, redirectUrl } = await completeSso(app.ctx, sso, request.query.ver);
        setRefreshCookie(reply, session);
        return {
          ...presentSession(session),
          redirect_url: redirectUrl,
          requires_subscription: requiresSubscription(session.user),
          subscribe_url: SUBSCRIBE_PATH,
        };
      },
    );

    app.post(
      '/auth/refresh-with-token',
      {
        config: { public: true },
        schema: {
          tags,
          summary: 'New access token from the refresh cookie',
          response: { 200: ZRefreshResponse },
        },
      },
      async (request, reply) => {
        const session = await refreshSession(app.ctx, request.cookies[REFRESH_COOKIE]);
        setRefreshCookie(reply, session);
        return presentSession(session);
      },
    );

    app.post(
      '/auth/logout',
      { config: { public: true }, schema: { tags, summary: 'End the session' } },
      async (request, reply) => {
        await endSession(app.ctx, request.cookies[REFRESH_COOKIE]);
        reply.clearCookie(REFRESH_COOKIE, { path: COOKIE_PATH });
        return reply.status(204).send();
      },
    );

    app.post(
      '/auth/refresh-after-subscription',
      {
        config: { readOnlyAllowed: true },
        schema: {
          tags,
          summary: 'New tokens carrying the current profiles_limit',
          response: { 200: ZRefreshResponse },
        },
      },
      async (request, reply) => {
        const session = await refreshAfterSubscription(app.ctx, requireUser(request).id);
        setRefreshCookie(reply, session);
        return presentSession(session);
      },
    );

    app.get(
      '/auth/v3-login',
      {
        config: { public: true },
        schema: {
          tags,
          summary: 'Direct moderator sign-in with a single-use v3 link',
          querystring: ZV3LoginQuery,
          response: { 200: ZV3LoginResponse },
        },
      },
      async (request, reply) => {
        const session = await loginWithV3(app.ctx, request.query.v3);
        setRefreshCookie(reply, session);
        return { token: session.accessToken, user: presentUser(session.user), redirect_url: '/' };
      },
    );
  };
