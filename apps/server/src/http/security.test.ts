import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config';
import { buildUser, type TestUser } from '../test/factories';
import { createTestApp, type TestApp } from '../test/test-app';
import { contentSecurityPolicy } from './security';

const webDist = mkdtempSync(path.join(tmpdir(), 'threadreach-web-'));
writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><div id="root"></div>');

let t: TestApp;
let user: TestUser;
beforeAll(async () => {
  t = await createTestApp({
    env: { JOBS_ENABLED: 'false', WEB_DIST_DIR: webDist, RATE_LIMIT_SIGN_IN: '3', RATE_LIMIT_PUBLIC: '5' },
  });
  user = await buildUser(t.ctx.db, t.config);
});
afterAll(() => t.close());

/** Requests from an address of their own, so each test starts with fresh limits. */
let nextAddress = 1;
const newAddress = () => `10.0.0.${nextAddress++}`;

describe('security headers', () => {
  it('are on every kind of answer: API, web app, API docs and the development sign-in', async () => {
    for (const url of [
      '/api/v1/health',
      '/api/v1/projects',
      '/projects/some/page',
      '/api/docs/',
      '/api/docs/static/swagger-ui.css',
      '/dev-idp/.well-known/openid-configuration',
      '/dev-idp/interaction/nouid',
    ]) {
      const res = await t.app.inject({ url, remoteAddress: newAddress() });
      const header = (name: string) => res.headers[name] ?? null;
      const csp = String(header('content-security-policy'));
      expect(csp, url).toContain("frame-ancestors 'none'");
      expect(csp, url).toContain("script-src 'self';");
      expect(csp, url).toContain("default-src 'self'");
      expect(csp, url).toContain(`form-action 'self' ${t.url}`);
      expect(header('x-frame-options'), url).toBe('DENY');
      expect(header('x-content-type-options'), url).toBe('nosniff');
      expect(header('referrer-policy'), url).toBe('no-referrer');
      // Plain HTTP (a local run) gets neither HSTS nor upgraded requests.
      expect(header('strict-transport-security'), url).toBeNull();
      expect(csp, url).not.toContain('upgrade-insecure-requests');
    }
  });

  it('allow the support chat script and its connections when one is configured, and HTTPS in full', () => {
    const config = loadConfig({
      NODE_ENV: 'test',
      JWT_SECRET: 'x'.repeat(40),
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'threadreach-csp-')),
      PUBLIC_URL: 'https://app.example.com',
      SUPPORT_CHAT_SCRIPT_URL: 'https://widget.chat.example/loader.js?id=1',
    });
    const csp = contentSecurityPolicy(config);
    expect(csp['script-src']).toEqual(["'self'", 'https://widget.chat.example']);
    expect(csp['connect-src']).toEqual(["'self'", 'https://widget.chat.example']);
    expect(csp['frame-src']).toEqual(['https://widget.chat.example']);
    expect(csp['upgrade-insecure-requests']).toEqual([]);
  });
});

describe('rate limits on routes without a token', () => {
  it('refuse sign-in attempts beyond the limit with 429, Retry-After and the error envelope', async () => {
    const remoteAddress = newAddress();
    const attempt = () => t.app.inject({ url: '/api/v1/auth/v3-login?v3=not-a-link', remoteAddress });
    for (let i = 0; i < 3; i++) expect((await attempt()).statusCode).toBe(401);
    const refused = await attempt();
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json()).toEqual({
      detail: expect.stringContaining('Too many requests'),
      code: 'rate_limited',
    });
    // The development sign-in's form posts count against the same limit.
    const picker = await t.app.inject({
      method: 'POST',
      url: '/dev-idp/interaction/x/login',
      remoteAddress,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'email=a%40b.c',
    });
    expect(picker.statusCode).toBe(429);
    // Another address, and the other routes of the same address, are not held back.
    expect(
      (await t.app.inject({ url: '/api/v1/auth/v3-login?v3=x', remoteAddress: newAddress() })).statusCode,
    ).toBe(401);
    expect((await t.app.inject({ url: '/api/v1/public-config', remoteAddress })).statusCode).toBe(200);
  });

  it('refuse other unauthenticated requests beyond their own limit', async () => {
    const remoteAddress = newAddress();
    for (const url of ['/api/v1/health', '/api/v1/billing/available-plans', '/api/v1/public-config']) {
      expect((await t.app.inject({ url, remoteAddress })).statusCode, url).toBe(200);
    }
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/v1/auth/logout', remoteAddress })).statusCode,
    ).toBe(204);
    expect(
      (await t.app.inject({ url: '/dev-idp/.well-known/openid-configuration', remoteAddress })).statusCode,
    ).toBe(200);
    const refused = await t.app.inject({ url: '/api/v1/health', remoteAddress });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'rate_limited' });
    expect((await t.app.inject({ url: '/api/docs/json', remoteAddress })).statusCode).toBe(429);
  });

  it('leave requests with a token alone', async () => {
    const remoteAddress = newAddress();
    for (let i = 0; i < 12; i++) {
      const res = await t.app.inject({ url: '/api/v1/me', headers: user.auth, remoteAddress });
      expect(res.statusCode).toBe(200);
    }
  });
});

describe('body parsing', () => {
  const big = (bytes: number) => 'a'.repeat(bytes);

  it('refuses bodies over the limit of each parser with 413 in the envelope', async () => {
    const cases = [
      {
        url: '/api/v1/projects',
        type: 'application/json',
        payload: JSON.stringify({ name: big(1024 * 1024) }),
      },
      { url: '/api/v1/billing/webhook', type: 'application/json', payload: big(600 * 1024) },
      {
        url: '/billing/local-checkout/cs_x/complete',
        type: 'application/x-www-form-urlencoded',
        payload: big(1100 * 1024),
      },
      { url: '/api/v1/projects', type: 'text/plain', payload: big(1100 * 1024) },
    ];
    for (const { url, type, payload } of cases) {
      const res = await t.app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': type, ...user.auth },
        payload,
        remoteAddress: newAddress(),
      });
      expect(res.statusCode, `${type} ${url}`).toBe(413);
      expect(res.json(), url).toEqual({ detail: 'The request body is too large.', code: 'body_too_large' });
    }
  });

  it('lets the identity provider refuse its own oversized bodies without harm', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/dev-idp/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `grant_type=${big(100 * 1024)}`,
      remoteAddress: newAddress(),
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
  });
});

describe('an identity provider that cannot be reached', () => {
  it('makes sign-in answer 503 in the envelope, not 500', async () => {
    // This app does not listen, so its own development provider is out of reach.
    const res = await t.app.inject({ url: '/api/v1/auth/sso/start', remoteAddress: newAddress() });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({
      detail: 'Single sign-on is not available right now. Please try again in a moment.',
      code: 'sso_unavailable',
    });
  });
});
