import { usersEndpoints } from '@threadreach/contract';
import { getUserInfo } from '../lib/jwt';
import { mockEndpoint } from './api-mock.test-support';

function base64Url(value: unknown): string {
  return btoa(JSON.stringify(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export interface TTestClaims {
  sub?: string;
  email?: string;
  exp?: number;
  iat?: number;
  server_id?: string;
  type?: string;
  profiles_limit?: number;
  roles?: unknown;
}

/** An unsigned JWT with the given claims; by default a USER with profiles_limit 3, valid for an hour. */
export function makeToken(claims: TTestClaims = {}): string {
  const now = Math.floor(Date.now() / 1000);
  const payload = {
    sub: 'user-1',
    email: 'user@example.com',
    iat: now,
    exp: now + 3600,
    server_id: 'test',
    type: 'access',
    profiles_limit: 3,
    roles: ['USER'],
    ...claims,
  };
  return `${base64Url({ alg: 'HS256', typ: 'JWT' })}.${base64Url(payload)}.signature`;
}

/** GET /users/me answering what the stored token says: a server whose plan agrees with the token. */
export function mockMeAsToken() {
  mockEndpoint(usersEndpoints.me, () => {
    const info = getUserInfo()!;
    return {
      user_id: info.user_id,
      email: info.email,
      roles: info.roles,
      profiles_limit: info.profiles_limit,
      projects_used: 0,
    };
  });
}
