import { z } from 'zod';
import {
  ZAuthCallbackQuery,
  ZAuthTokenResponse,
  ZMeResponse,
  ZRefreshResponse,
  ZSsoStartQuery,
  ZSsoStartResponse,
  ZV3LoginQuery,
  ZV3LoginResponse,
} from './auth.schema';
import { ZText } from './common.schema';
import { endpoint, scope } from './endpoint';

const tags = ['auth'];

/** The provider's redirect carries its own parameters; every one is text that may reach the database. */
const ZSsoReturnQuery = z.looseObject({
  code: ZText().max(4000).optional(),
  state: ZText().max(500).optional(),
  iss: ZText().max(2000).optional(),
  error: ZText().max(500).optional(),
  error_description: ZText().max(2000).optional(),
});

export const authEndpoints = {
  ssoStart: endpoint({
    method: 'GET',
    path: '/api/v1/auth/sso/start',
    summary: "Start single sign-on: the provider's authorize URL",
    tags,
    scope: scope.public(),
    query: ZSsoStartQuery,
    responses: { 200: ZSsoStartResponse },
  }),
  ssoReturn: endpoint({
    method: 'GET',
    path: '/api/v1/auth/sso/return',
    summary: "The provider's redirect; forwards to the web app's /auth/callback",
    tags,
    scope: scope.public(),
    query: ZSsoReturnQuery,
    responses: { 302: null },
    hide: true,
  }),
  callback: endpoint({
    method: 'GET',
    path: '/api/v1/auth/callback',
    summary: 'Complete single sign-on with the ver parameter',
    tags,
    scope: scope.public(),
    query: ZAuthCallbackQuery,
    responses: { 200: ZAuthTokenResponse },
  }),
  refreshWithToken: endpoint({
    method: 'POST',
    path: '/api/v1/auth/refresh-with-token',
    summary: 'New access token from the refresh cookie',
    tags,
    scope: scope.public(),
    responses: { 200: ZRefreshResponse },
  }),
  logout: endpoint({
    method: 'POST',
    path: '/api/v1/auth/logout',
    summary: 'End the session',
    tags,
    scope: scope.public(),
    responses: { 204: null },
  }),
  // Reads the caller's current limit into new tokens: READONLY accounts need it too.
  refreshAfterSubscription: endpoint({
    method: 'POST',
    path: '/api/v1/auth/refresh-after-subscription',
    summary: 'New tokens carrying the current profiles_limit',
    tags,
    scope: scope.user('read'),
    responses: { 200: ZRefreshResponse },
  }),
  v3Login: endpoint({
    method: 'GET',
    path: '/api/v1/auth/v3-login',
    summary: 'Direct moderator sign-in with a single-use v3 link',
    tags,
    scope: scope.public(),
    query: ZV3LoginQuery,
    responses: { 200: ZV3LoginResponse },
  }),
};

export const usersEndpoints = {
  me: endpoint({
    method: 'GET',
    path: '/api/v1/me',
    summary: 'The signed-in user with roles, limit and usage',
    tags: ['users'],
    scope: scope.user('read'),
    responses: { 200: ZMeResponse },
  }),
};
