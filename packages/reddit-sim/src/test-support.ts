import { type RedditSim, startRedditSim } from './index';
import type { RedditSimOptions } from './server';

/** Shared by the *.test.ts files: a simulator on a random port with a clock the test moves. */
export const UA = 'threadreach-tests/1.0 (by /u/demo_founder)';
export const START = Date.UTC(2025, 5, 2, 12, 0, 0);

export interface TestSim {
  sim: RedditSim;
  clock: { t: number; advance(ms: number): void };
  get(path: string, token?: string, headers?: Record<string, string>): Promise<Response>;
  post(
    path: string,
    form: Record<string, string>,
    token?: string,
    headers?: Record<string, string>,
  ): Promise<Response>;
  appToken(clientId?: string, secret?: string): Promise<string>;
  userToken(opts?: {
    username?: string;
    scopes?: string;
    duration?: 'temporary' | 'permanent';
    clientId?: string;
    secret?: string;
  }): Promise<{ access_token: string; refresh_token?: string; scope: string; expires_in: number }>;
}

export function basic(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
}

export async function startTestSim(options: RedditSimOptions = {}): Promise<TestSim> {
  const clock = {
    t: START,
    advance(ms: number) {
      clock.t += ms;
    },
  };
  const sim = await startRedditSim({ now: () => clock.t, ...options });
  const get = (path: string, token?: string, headers: Record<string, string> = {}) =>
    fetch(`${sim.url}${path}`, {
      headers: { 'user-agent': UA, ...(token ? { authorization: `bearer ${token}` } : {}), ...headers },
      redirect: 'manual',
    });
  const post = (
    path: string,
    form: Record<string, string>,
    token?: string,
    headers: Record<string, string> = {},
  ) =>
    fetch(`${sim.url}${path}`, {
      method: 'POST',
      headers: {
        'user-agent': UA,
        'content-type': 'application/x-www-form-urlencoded',
        ...(token ? { authorization: `bearer ${token}` } : {}),
        ...headers,
      },
      body: new URLSearchParams(form).toString(),
      redirect: 'manual',
    });
  const appToken = async (clientId = 'test-app', secret = 'test-secret') => {
    const res = await post('/api/v1/access_token', { grant_type: 'client_credentials' }, undefined, {
      authorization: basic(clientId, secret),
    });
    const body = (await res.json()) as { access_token: string };
    return body.access_token;
  };
  const userToken: TestSim['userToken'] = async (opts = {}) => {
    const clientId = opts.clientId ?? 'test-web-app';
    const secret = opts.secret ?? 'web-secret';
    const redirectUri = 'http://localhost:5173/callback';
    const fields = {
      client_id: clientId,
      response_type: 'code',
      state: 'st4te',
      redirect_uri: redirectUri,
      duration: opts.duration ?? 'permanent',
      scope: opts.scopes ?? 'identity read history privatemessages',
    };
    const decision = await post('/api/v1/authorize', {
      ...fields,
      username: opts.username ?? 'demo_founder',
      authorize: 'Approve',
    });
    const location = new URL(decision.headers.get('location') ?? '');
    const code = location.searchParams.get('code') ?? '';
    const res = await post(
      '/api/v1/access_token',
      { grant_type: 'authorization_code', code, redirect_uri: redirectUri },
      undefined,
      { authorization: basic(clientId, secret) },
    );
    return (await res.json()) as {
      access_token: string;
      refresh_token?: string;
      scope: string;
      expires_in: number;
    };
  };
  return { sim, clock, get, post, appToken, userToken };
}
