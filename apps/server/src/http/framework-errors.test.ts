import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProject, buildUser } from '../test/factories';
import { createTestApp, type TestApp } from '../test/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ listen: true });
});
afterAll(() => t.close());

async function get(path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${t.url}${path}`, { headers });
  return { status: res.status, body: (await res.json()) as unknown };
}

describe("the framework's own errors", () => {
  it('answers a path parameter over the length limit with 414 in the envelope', async () => {
    expect(await get(`/api/v1/projects/${'a'.repeat(150)}`)).toEqual({
      status: 414,
      body: { detail: 'A path parameter is too long.', code: 'uri_too_long' },
    });
  });

  it('answers a bad URL encoding with 400 in the envelope', async () => {
    for (const path of ['/api/v1/projects/%C0%AF', '/nope%']) {
      expect(await get(path)).toEqual({
        status: 400,
        body: { detail: 'The address is not valid URL encoding.', code: 'bad_url' },
      });
    }
  });

  it('answers headers over the size limit with 431 in the envelope', async () => {
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(
        `${t.url}/api/v1/health`,
        { headers: { 'x-big': 'a'.repeat(20_000) } },
        (res) => {
          let body = '';
          res.on('data', (c) => (body += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(answer.status).toBe(431);
    expect(JSON.parse(answer.body)).toEqual({
      detail: 'Request headers are too large.',
      code: 'headers_too_large',
    });
  });

  it('answers unknown API routes with 404 in the envelope', async () => {
    expect(await get('/api/v1/nope')).toEqual({
      status: 404,
      body: { detail: 'Route GET /api/v1/nope not found', code: 'not_found' },
    });
  });
});

describe('NUL and control characters', () => {
  it('refuse with 400, even without a token, wherever text reaches the database', async () => {
    const ver = Buffer.from('code=x&state=%00').toString('base64url');
    for (const path of [
      '/api/v1/auth/sso/return?state=%00',
      `/api/v1/auth/callback?ver=${ver}`,
      '/api/v1/auth/v3-login?v3=%00',
      '/billing/local-checkout/%00',
    ]) {
      const res = await get(path);
      expect(res.status, path).toBe(400);
      expect(res.body, path).toMatchObject({ code: expect.stringMatching(/validation_error|sso_invalid/) });
    }
    for (const path of ['/billing/local-checkout/%00/complete', '/billing/local-checkout/%00/cancel']) {
      const res = await fetch(`${t.url}${path}`, { method: 'POST', redirect: 'manual' });
      expect(res.status, path).toBe(400);
    }
  });

  it('refuse in every stored text field with 400 and store nothing', async () => {
    const project = await buildProject(t.ctx.db, t.config);
    const headers = { ...project.owner.auth, 'content-type': 'application/json' };
    const send = (method: string, path: string, body: unknown) =>
      fetch(`${t.url}${path}`, { method, headers, body: JSON.stringify(body) });
    const info = {
      product_description: 'A tool that finds people on Reddit who ask for what you sell, every day.',
      ideal_client_profile: 'Founders of small software companies who sell to businesses.',
      call_to_action: 'Reply for a trial.',
      writing_style: 'Friendly.',
    };
    for (const [method, path, body] of [
      ['POST', '/api/v1/projects', { name: 'a\u0000b' }],
      ['PUT', `/api/v1/projects/${project.id}`, { description: 'x\u0007' }],
      ['PUT', `/api/v1/projects/${project.id}/product-info`, { ...info, writing_style: 'Friendly\u0000' }],
    ] as const) {
      const res = await send(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(400);
      expect(await res.json()).toMatchObject({ code: 'validation_error' });
    }
    const ok = await send('PUT', `/api/v1/projects/${project.id}`, { description: 'Tabs\tand\nlines stay.' });
    expect(ok.status).toBe(200);
  });
});

describe('JSON bodies', () => {
  it('refuse a field the route does not know with 400 naming it, and change nothing', async () => {
    const project = await buildProject(t.ctx.db, t.config);
    const res = await fetch(`${t.url}/api/v1/projects/${project.id}`, {
      method: 'PUT',
      headers: { ...project.owner.auth, 'content-type': 'application/json' },
      body: JSON.stringify({ description: 'New', descripton: 'typo', colour: 'red' }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      detail: 'Unknown fields in the body: "descripton", "colour"',
      code: 'validation_error',
    });
    const after = await fetch(`${t.url}/api/v1/projects/${project.id}`, { headers: project.owner.auth });
    expect(((await after.json()) as { description: string | null }).description).not.toBe('New');
    // An optional body too.
    const toggle = await fetch(`${t.url}/api/v1/projects/${project.id}/agent-settings/toggle-mode`, {
      method: 'POST',
      headers: { ...project.owner.auth, 'content-type': 'application/json' },
      body: JSON.stringify({ extra: 1 }),
    });
    expect(toggle.status).toBe(400);
    expect(await toggle.json()).toMatchObject({
      detail: 'Unknown field in the body: "extra"',
      errors: [{ path: '', message: 'Unknown field in the body: "extra"' }],
    });
  });

  it('take the agent settings sent back as GET answered them, changing only the settings', async () => {
    const project = await buildProject(t.ctx.db, t.config);
    const url = `${t.url}/api/v1/projects/${project.id}/agent-settings`;
    const current = (await (await fetch(url, { headers: project.owner.auth })).json()) as Record<
      string,
      unknown
    >;
    const res = await fetch(url, {
      method: 'POST',
      headers: { ...project.owner.auth, 'content-type': 'application/json' },
      // All but project_id: the path names the project.
      body: JSON.stringify({
        ...current,
        project_id: undefined,
        daily_dm_limit_per_profile: 3,
        mode: 'agent',
      }),
    });
    expect(res.status).toBe(200);
    // The mode changes with toggle-mode only.
    expect(await res.json()).toMatchObject({ daily_dm_limit_per_profile: 3, mode: current.mode });
  });

  it('take regenerate_keywords false on the saving PUT of product info, as the spec has it', async () => {
    const project = await buildProject(t.ctx.db, t.config);
    const info = {
      product_description: 'A tool that finds people on Reddit who ask for what you sell, every day.',
      ideal_client_profile: 'Founders of small software companies who sell to businesses.',
      call_to_action: 'Reply for a trial.',
      writing_style: 'Friendly.',
    };
    const put = (body: object) =>
      fetch(`${t.url}/api/v1/projects/${project.id}/product-info`, {
        method: 'PUT',
        headers: { ...project.owner.auth, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await put({ ...info, regenerate_keywords: false })).status).toBe(200);
    const regenerate = await put({ ...info, regenerate_keywords: true });
    expect(regenerate.status).toBe(400);
    expect(await regenerate.json()).toMatchObject({
      detail: 'PUT saves only: regenerate_keywords must be false',
    });
  });

  /** A raw connection, to see what the server does with the bytes of a body it refused. */
  async function rawConnection() {
    const { port } = new URL(t.url);
    const socket = connect(Number(port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    /** Writes the bytes, waiting when the connection asks to; stops when it is closed. */
    async function send(total: number) {
      const block = Buffer.alloc(64 * 1024, 'x');
      let sent = 0;
      while (!socket.destroyed && sent < total) {
        const chunk = block.subarray(0, Math.min(block.length, total - sent));
        if (!socket.write(chunk)) {
          await new Promise((resolve) => socket.once('drain', resolve).once('close', resolve));
        }
        sent += chunk.length;
      }
      return sent;
    }
    return { socket, send, closed, received: () => received };
  }

  const postHead = (auth: string, length: number) =>
    `POST /api/v1/projects HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${auth}\r\n` +
    `Content-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

  it('answer a body over the limit with 413 and read the rest of it, so the sender is not reset', async () => {
    const user = await buildUser(t.ctx.db, t.config);
    const conn = await rawConnection();
    const length = 4 * 1024 * 1024;
    conn.socket.write(postHead(user.auth.authorization, length));
    // The whole body goes through: closing the connection under it reset the sender, which then
    // often never read the 413 (EPIPE from fetch for bodies of a few MB).
    expect(await conn.send(length)).toBe(length);
    await expect.poll(() => conn.received()).toMatch(/^HTTP\/1\.1 413 [\s\S]*"code":"body_too_large"/);
    expect(conn.received().toLowerCase()).not.toContain('connection: close');
    // The same connection still answers.
    conn.socket.write('GET /api/v1/nope HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await expect.poll(() => conn.received()).toMatch(/HTTP\/1\.1 404 [\s\S]*"code":"not_found"/);
    conn.socket.destroy();
  });

  it('stop reading a refused body past its bound, and close the connection', async () => {
    const user = await buildUser(t.ctx.db, t.config);
    const conn = await rawConnection();
    conn.socket.write(postHead(user.auth.authorization, 1024 * 1024 * 1024));
    const sent = await conn.send(64 * 1024 * 1024);
    await conn.closed;
    expect(conn.received()).toMatch(/^HTTP\/1\.1 413 /);
    expect(sent).toBeLessThan(64 * 1024 * 1024);
  });

  async function post(body: string) {
    const project = await buildProject(t.ctx.db, t.config);
    const res = await fetch(`${t.url}/api/v1/projects/${project.id}/log-behavior`, {
      method: 'POST',
      headers: { ...project.owner.auth, 'content-type': 'application/json' },
      body,
    });
    return { status: res.status, body: (await res.json()) as unknown };
  }

  it('refuse a lone surrogate escape, in a value or a key, with 400 (jsonb cannot hold it)', async () => {
    for (const metadata of ['{"a":"\\ud800"}', '{"\\udc00":1}', '{"a":["x\\ud83d"]}']) {
      expect(await post(`{"action":"message_edited","metadata":${metadata}}`), metadata).toEqual({
        status: 400,
        body: {
          detail: 'Request body holds a lone surrogate escape (\\uD800 to \\uDFFF), which is not valid text.',
          code: 'invalid_json',
        },
      });
    }
  });

  it('take a surrogate pair, and a backslash before "ud800", as the text they are', async () => {
    for (const metadata of ['{"a":"\\ud83d\\ude00"}', '{"a":"C:\\\\ud800"}']) {
      expect((await post(`{"action":"message_edited","metadata":${metadata}}`)).status, metadata).toBe(201);
    }
  });

  it('refuse nesting deeper than 32 levels with 400 instead of overflowing the stack', async () => {
    const deep = `${'['.repeat(5000)}1${']'.repeat(5000)}`;
    expect(await post(`{"action":"message_edited","metadata":{"a":${deep}}}`)).toEqual({
      status: 400,
      body: {
        detail: 'Request body nests deeper than 32 levels of objects and arrays.',
        code: 'invalid_json',
      },
    });
  });
});
