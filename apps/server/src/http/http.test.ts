import { mkdirSync, writeFileSync } from 'node:fs';
import { brotliCompressSync, brotliDecompressSync, gzipSync, gunzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProject, buildUser } from '../test/factories';
import { createTestApp, type TestApp } from '../test/test-app';
import { redactSecrets, redactUrl, scrubSecrets } from './logger';

const webDir = path.join(tmpdir(), `threadreach-web-${process.pid}`);
const BIG_SCRIPT = `export const rows = [${Array.from({ length: 400 }, (_, i) => `'row ${i}'`).join(', ')}];`;
const lines: string[] = [];
let t: TestApp;

beforeAll(async () => {
  mkdirSync(path.join(webDir, 'assets'), { recursive: true });
  writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><div id="root"></div>');
  writeFileSync(path.join(webDir, 'assets', 'app.js'), 'console.log(1)');
  // As the build leaves a script: with its brotli and gzip copies.
  writeFileSync(path.join(webDir, 'assets', 'big.js'), BIG_SCRIPT);
  writeFileSync(path.join(webDir, 'assets', 'big.js.br'), brotliCompressSync(BIG_SCRIPT));
  writeFileSync(path.join(webDir, 'assets', 'big.js.gz'), gzipSync(BIG_SCRIPT));
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  t = await createTestApp({ env: { WEB_DIST_DIR: webDir }, logger: { stream, level: 'info' } });
});
afterAll(() => t.close());

describe('http surface', () => {
  it('serves the web app with history fallback, and JSON 404s under /api and for missing files', async () => {
    expect((await t.app.inject({ url: '/assets/app.js' })).body).toBe('console.log(1)');
    const deep = await t.app.inject({ url: '/subscribe/success', headers: { accept: 'text/html' } });
    expect(deep.statusCode).toBe(200);
    expect(deep.body).toContain('<div id="root">');
    // A file that is not there is not a page: a chunk a deploy removed fails as a script load can tell.
    for (const url of ['/assets/lazy-Gone1234.js', '/assets/lazy', '/favicon.ico', '/robots.txt?x=1']) {
      const missing = await t.app.inject({ url, headers: { accept: '*/*' } });
      expect(missing.statusCode, url).toBe(404);
      expect(missing.json<{ code: string }>().code).toBe('not_found');
    }
    const api = await t.app.inject({ url: '/api/v1/nope' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ detail: 'Route GET /api/v1/nope not found', code: 'not_found' });
  });

  it('answers 405 with the methods a path takes to a method it does not take, and 404 to a path that is not there', async () => {
    const user = await buildUser(t.ctx.db, t.config);
    const project = await buildProject(t.ctx.db, t.config, { owner: user });
    const wrong = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/dm-messages/${project.id}?x=1`,
      headers: user.auth,
    });
    expect(wrong.statusCode).toBe(405);
    expect(wrong.headers.allow).toBe('DELETE');
    expect(wrong.json()).toEqual({
      detail: `/api/v1/dm-messages/${project.id} does not take PUT; it takes DELETE`,
      code: 'method_not_allowed',
    });
    const list = await t.app.inject({ method: 'DELETE', url: '/api/v1/projects' });
    expect(list.statusCode).toBe(405);
    expect(list.headers.allow).toBe('GET, HEAD, POST');
    const nested = await t.app.inject({ method: 'DELETE', url: `/api/v1/projects/${project.id}/nope` });
    expect(nested.statusCode).toBe(404);
    expect(nested.json<{ code: string }>().code).toBe('not_found');
  });

  it('serves files a build wrote after the server started', async () => {
    const name = `later-${process.pid}.js`;
    writeFileSync(path.join(webDir, 'assets', name), 'console.log(2)');
    const later = await t.app.inject({ url: `/assets/${name}` });
    expect(later.statusCode).toBe(200);
    expect(later.body).toBe('console.log(2)');
    expect(later.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // Nothing outside the build is reachable (a path without a file name is a page: index.html).
    for (const url of [
      '/assets/../../etc/passwd',
      '/%2e%2e/%2e%2e/etc/passwd',
      '/assets/%2e%2e/index.html',
    ]) {
      const outside = await t.app.inject({ url, headers: { accept: '*/*' } });
      expect(outside.body, url).not.toContain('root:');
    }
  });

  it('sends built files compressed as the browser takes them, kept for good; index.html checked each load', async () => {
    const br = await t.app.inject({
      url: '/assets/big.js',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('accept-encoding');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(BIG_SCRIPT);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');

    const gz = await t.app.inject({ url: '/assets/big.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(BIG_SCRIPT);
    const plain = await t.app.inject({ url: '/assets/big.js' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(BIG_SCRIPT);

    for (const url of ['/', '/index.html', '/projects']) {
      const page = await t.app.inject({ url, headers: { accept: 'text/html' } });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('<div id="root">');
      expect(page.headers['cache-control']).toBe('no-cache');
    }
  });

  it('gzips API answers of 1 KiB or more for clients that take it, and leaves small ones as they are', async () => {
    const owner = await buildUser(t.ctx.db, t.config, { profilesLimit: 50 });
    for (let i = 0; i < 30; i++) await buildProject(t.ctx.db, t.config, { owner, name: `Campaign ${i}` });
    const url = '/api/v1/projects?limit=30';
    const plain = await t.app.inject({ url, headers: owner.auth });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);

    const gz = await t.app.inject({
      url,
      headers: { ...owner.auth, 'accept-encoding': 'gzip, deflate, br, zstd' },
    });
    expect(gz.statusCode).toBe(200);
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers.vary).toContain('accept-encoding');
    expect(gz.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(plain.json());

    const small = await t.app.inject({
      url: '/api/v1/projects?limit=1',
      headers: { ...owner.auth, 'accept-encoding': 'gzip' },
    });
    expect(small.rawPayload.length).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
  });

  it('never compresses the sign-in answers, which carry tokens', () => {
    const signIn = t.app.routeTable.filter((r) => r.url.startsWith('/api/v1/auth/'));
    expect(signIn.length).toBeGreaterThan(5);
    for (const r of signIn) expect((r as { compress?: unknown }).compress, r.url).toBe(false);
    const projects = t.app.routeTable.find((r) => r.url === '/api/v1/projects');
    expect((projects as { compress?: unknown }).compress).toBeUndefined();
  });

  it('serves the OpenAPI document at /api/docs', async () => {
    const res = await t.app.inject({ url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/v1/projects',
        '/api/v1/projects/{projectId}/product-info',
        '/api/v1/auth/callback',
      ]),
    );
    expect((await t.app.inject({ url: '/api/docs' })).statusCode).toBeLessThan(400);
  });

  it('keeps tokens and sign-in codes out of the log', async () => {
    const project = await buildProject(t.ctx.db, t.config);
    const canary = 'CANARY-v3-secret-value';
    await t.app.inject({ url: `/api/v1/projects/${project.id}`, headers: project.owner.auth });
    await t.app.inject({ url: `/api/v1/auth/v3-login?v3=${canary}` });
    await t.app.inject({ url: `/api/v1/auth/callback?ver=${canary}` });
    await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/refresh-with-token',
      headers: { cookie: `tr_refresh=${canary}` },
    });
    const log = lines.join('');
    expect(log).toContain('/api/v1/auth/v3-login?v3=[redacted]');
    expect(log).not.toContain(canary);
    expect(log).not.toContain(project.owner.token);
  });

  it('logs a failed query without the values bound to it', async () => {
    const canary = 'CANARY-bound-value\nsecond line';
    const error = await t.ctx.db.execute(sql`select ${canary}::int as n, ${'another'} as m`).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Error);
    // The unredacted error does carry them: the log line is where they must be gone.
    expect(String((error as Error).message)).toContain('CANARY-bound-value');
    const before = lines.length;
    t.ctx.log.error({ err: error }, 'request failed');
    const line = lines.slice(before).join('');
    expect(line).toContain('Failed query: select $1::int as n, $2 as m');
    expect(line).toContain('params: [redacted]');
    expect(line).not.toContain('CANARY-bound-value');
    expect(line).not.toContain('second line');
    expect(line).not.toContain('another');
  });

  it('logs an error given without a message with the message cleaned as its error field is', async () => {
    const canary = 'CANARY-unlabelled-bound';
    const error = await t.ctx.db.execute(sql`select ${canary}::int as n`).then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toContain(canary);
    const before = lines.length;
    // pino takes the error's own message as the line's when none is given.
    t.ctx.log.error(error);
    t.ctx.log.warn({ err: error });
    t.ctx.log.error(new Error('refresh failed: refresh_token=CANARY-raw-token'));
    const logged = lines.slice(before).map((line) => JSON.parse(line) as { msg: string });
    expect(logged).toHaveLength(3);
    expect(logged[0]!.msg).toContain('Failed query: select $1::int as n');
    expect(logged[0]!.msg).toContain('params: [redacted]');
    expect(logged[1]!.msg).toBe(logged[0]!.msg);
    expect(logged[2]!.msg).toBe('refresh failed: refresh_token=[redacted]');
    expect(JSON.stringify(logged)).not.toContain('CANARY');
    // A message given, or one in the logged object, stays the line's.
    t.ctx.log.error({ err: error, msg: 'kept' });
    t.ctx.log.error(error, 'given');
    expect(lines.slice(before + 3).map((line) => (JSON.parse(line) as { msg: string }).msg)).toEqual([
      'kept',
      'given',
    ]);
  });

  it('scrubs a secret split over format arguments, and formats other lines as pino does', () => {
    const before = lines.length;
    t.ctx.log.info('%s %s', 'Bearer', 'CANARY-split-token');
    t.ctx.log.warn({ attempt: 2 }, 'retrying with %s=%s', 'refresh_token', 'CANARY-split-refresh');
    t.ctx.log.info('user %s signed in %d times', 'jane', 3);
    const logged = lines.slice(before).map((line) => JSON.parse(line) as { msg: string; attempt?: number });
    expect(logged.map((l) => l.msg)).toEqual([
      'Bearer [redacted]',
      'retrying with refresh_token=[redacted]',
      'user jane signed in 3 times',
    ]);
    expect(logged[1]!.attempt).toBe(2);
  });

  it('writes the value of no secret key to the log, at any depth and in any letter case', () => {
    const logged = {
      client_secret: 'CANARY-1',
      nested: { Password: 'CANARY-2', list: [{ apiKey: 'CANARY-3' }, 'kept'] },
      headers: { Authorization: 'Bearer CANARY-4', cookie: 'CANARY-5', accept: 'text/html' },
      attempts: 3,
    };
    const before = lines.length;
    t.ctx.log.info(logged, 'secrets in fields');
    t.ctx.log.child({ token: 'CANARY-6' }).info('secret in a binding');
    const out = lines.slice(before).join('');
    expect(out).not.toMatch(/CANARY/);
    expect(out).toContain('"accept":"text/html"');
    expect(out).toContain('"attempts":3');
    expect(out).toContain('"kept"');
    // What the caller logged is left as it was.
    expect(logged.nested.Password).toBe('CANARY-2');
    expect(redactSecrets(logged.headers)).toEqual({
      Authorization: '[redacted]',
      cookie: '[redacted]',
      accept: 'text/html',
    });
    const clean = { a: 1, b: { c: 'd' } };
    expect(redactSecrets(clean)).toBe(clean);
  });

  it('scrubs tokens and secrets out of free text', () => {
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abc_def-123';
    expect(scrubSecrets(`token ${jwt} used`)).toBe('token [redacted] used');
    expect(scrubSecrets('Authorization: Bearer abc.def')).toBe('Authorization: [redacted]');
    expect(scrubSecrets('header Bearer abc123')).toBe('header Bearer [redacted]');
    // Neither `=`, `:` nor `@`: found by the word alone, in any case, before any whitespace.
    expect(scrubSecrets('login with BASIC\tdXNlcjpwYXNz')).toBe('login with BASIC [redacted]');
    expect(scrubSecrets('postgres://app:pw@db:5432/x')).toBe('postgres://[redacted]@db:5432/x');
    expect(scrubSecrets('/cb?code=abc&state=xyz&page=2')).toBe('/cb?code=[redacted]&state=[redacted]&page=2');
    expect(scrubSecrets('{"client_secret": "s3cr3t", "name": "bot"}')).toBe(
      '{"client_secret": "[redacted]", "name": "bot"}',
    );
    expect(scrubSecrets('password=hunter2; refresh_token=r1')).toBe(
      'password=[redacted]; refresh_token=[redacted]',
    );
    expect(scrubSecrets('GET /api/v1/projects 200 3ms')).toBe('GET /api/v1/projects 200 3ms');
  });

  it('redacts credential query parameters', () => {
    expect(redactUrl('/a?ver=x&redirect_to=%2F')).toBe('/a?ver=%5Bredacted%5D&redirect_to=%2F');
    expect(redactUrl('/a')).toBe('/a');
  });
});
