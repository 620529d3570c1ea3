import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app';
import { FORM_BODY_LIMIT } from './dev-idp.plugin';

let t: TestApp;
let startWarnings: string[] = [];
beforeAll(async () => {
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
  try {
    t = await createTestApp({ listen: true, env: { JOBS_ENABLED: 'false' } });
  } finally {
    startWarnings = warn.mock.calls.map((call) => call.map(String).join(' '));
    warn.mockRestore();
  }
});
afterAll(() => t.close());

interface Answer {
  status: number;
  body: string;
  /** Bytes of the request body written before the answer arrived. */
  sent: number;
}

/**
 * Posts a form body of `total` bytes in 64 KiB chunks, as a client that keeps streaming would, and stops
 * writing as soon as an answer arrives. `declared` sends a Content-Length instead of chunked encoding.
 */
function streamForm(path: string, total: number, declared?: number): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
    if (declared !== undefined) headers['content-length'] = String(declared);
    const req = httpRequest(`${t.url}${path}`, { method: 'POST', headers }, (res) => {
      answered = true;
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, sent }));
    });
    // The server may close the connection while we still write: that is the point.
    req.on('error', (error) => (answered ? undefined : reject(error)));
    const chunk = Buffer.alloc(64 * 1024, 'a');
    const pump = () => {
      while (!answered && sent < total) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      if (!answered && declared === undefined) req.end();
    };
    req.write('email=');
    pump();
  });
}

it('starts without oidc-provider telling the person trying the demo to change its store', () => {
  expect(startWarnings.filter((line) => line.includes('oidc-provider'))).toEqual([]);
});

describe('the development identity provider under hostile requests', () => {
  it('refuses a huge form body with 413 without reading it, and keeps answering', async () => {
    // A declared 600 MB body is refused from its Content-Length alone.
    const declared = await streamForm('/dev-idp/interaction/x/login', 256 * 1024, 600 * 1024 * 1024);
    expect(declared.status).toBe(413);
    expect(JSON.parse(declared.body)).toEqual({ detail: expect.any(String), code: 'body_too_large' });

    // A chunked body that never ends is cut off once it passes the limit.
    const streamed = await streamForm('/dev-idp/interaction/x/login', 256 * 1024 * 1024);
    expect(streamed.status).toBe(413);
    expect(JSON.parse(streamed.body)).toMatchObject({ code: 'body_too_large' });
    expect(streamed.sent).toBeLessThan(256 * 1024 * 1024);

    const health = await fetch(`${t.url}/api/v1/health`);
    expect(health.status).toBe(200);
  });

  it('reads a form up to its limit', async () => {
    const justOver = await fetch(`${t.url}/dev-idp/interaction/x/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `email=${'a'.repeat(FORM_BODY_LIMIT)}`,
    });
    expect(justOver.status).toBe(413);
    const within = await fetch(`${t.url}/dev-idp/interaction/x/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=user%40demo.local',
    });
    // Read, then refused for the unknown interaction: not for its size.
    expect(within.status).toBe(400);
  });

  it.each(['login', 'abort'])(
    'answers an unknown interaction on /%s with 400 instead of hanging',
    async (step) => {
      const res = await fetch(`${t.url}/dev-idp/interaction/nouid/${step}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'email=user%40demo.local',
        // Without an answer the test fails here instead of at its own time limit.
        signal: AbortSignal.timeout(10_000),
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        detail: 'This sign-in is unknown or has expired. Please start it again from the app.',
        code: 'sign_in_expired',
      });
    },
  );

  it('answers an unknown interaction page with 400 too', async () => {
    const res = await fetch(`${t.url}/dev-idp/interaction/nouid`, { signal: AbortSignal.timeout(10_000) });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'sign_in_expired' });
  });

  it.each([
    ['GET', ''],
    ['POST', '/login'],
  ])(
    'sends a browser that goes Back onto a finished sign-in (%s) to the app, not to an error',
    async (method, step) => {
      const res = await fetch(`${t.url}/dev-idp/interaction/nouid${step}`, {
        method,
        redirect: 'manual',
        headers: {
          accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
          ...(method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        },
        ...(method === 'POST' ? { body: 'email=user%40demo.local' } : {}),
        signal: AbortSignal.timeout(10_000),
      });
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe('/');
    },
  );

  it('refuses other body types on the picker with 415', async () => {
    const res = await fetch(`${t.url}/dev-idp/interaction/x/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"email":"user@demo.local"}',
    });
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({ code: 'unsupported_media_type' });
  });
});
