import { randomUUID } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { gte, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildUser, type TestUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { systemLogs } from './system-logs.table';

/** Values that must never reach system_logs, each unique so a hit names its leak. */
const CANARY = {
  jwt: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJjYW5hcnktand0LTAxIn0.Y2FuYXJ5LXNpZ25hdHVyZS0wMQ',
  jwtInText: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJjYW5hcnktand0LTAyIn0.Y2FuYXJ5LXNpZ25hdHVyZS0wMg',
  cookie: 'cookie-canary-5e1d',
  v3: 'v3-canary-a41c',
  clientSecret: 'client-secret-canary-77b2',
  clientSecretInText: 'client-secret-canary-91c4',
  password: 'password-canary-3f0a',
  accessToken: 'access-token-canary-c2d9',
  refreshToken: 'refresh-token-canary-8e66',
  proxyPassword: 'proxy-password-canary-40fe',
  emailBody: 'email-body-canary: Hello Jane, your invoice is attached',
  apiKey: 'sk-canary-api-key-12ab',
  boundValue: 'bound-value-canary-6d21',
  // The demo billing pages' session ids are their only key: whoever has one can act on the plan.
  portalSession: 'Canary-portal-session-0a1b',
  checkoutSession: 'Canary_checkout-session_2c3d',
};

const stdout: string[] = [];
let t: TestApp;
let admin: TestUser;
let startedAt: Date;

beforeAll(async () => {
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => stdout.push(chunk.toString()));
  t = await createTestApp({ listen: true, logger: { stream, level: 'debug' } });
  admin = await buildUser(t.ctx.db, t.config, { roles: ['ADMIN'] });
  startedAt = new Date(Date.now() - 1000);
});
afterAll(() => t.close());

async function storedSince(since: Date): Promise<string[]> {
  await t.ctx.systemLogs!.flush();
  const rows = await t.ctx.db.select().from(systemLogs).where(gte(systemLogs.timestamp, since));
  return rows.map((r) => JSON.stringify(r));
}

describe('system logs', () => {
  it('stores server, access and AI lines with no secret, token, cookie or e-mail body in them', async () => {
    // Real HTTP requests carrying credentials in headers, cookies and the query string.
    const denied = await fetch(`${t.url}/api/v1/system/logs?search=canary-request`, {
      headers: { authorization: `Bearer ${CANARY.jwt}`, cookie: `tr_refresh=${CANARY.cookie}` },
    });
    expect(denied.status).toBe(401);
    await fetch(`${t.url}/api/v1/auth/v3-login?v3=${CANARY.v3}`);
    await fetch(`${t.url}/billing/local-portal/bps_local_${CANARY.portalSession}`);
    await fetch(`${t.url}/billing/local-checkout/cs_local_${CANARY.checkoutSession}/complete`, {
      method: 'POST',
    });
    const created = await fetch(`${t.url}/api/v1/reddit-credentials`, {
      method: 'POST',
      headers: { ...admin.auth, 'content-type': 'application/json' },
      body: JSON.stringify({
        type: 'search',
        account_name: 'canary_bot',
        client_id: `canary-client-${randomUUID()}`,
        client_secret: CANARY.clientSecret,
      }),
    });
    expect(created.status).toBe(201);

    // Lines the code might write by mistake.
    const log = t.ctx.log;
    log.info(
      {
        client_secret: CANARY.clientSecret,
        nested: { password: CANARY.password, apiKey: CANARY.apiKey },
        headers: { authorization: `Bearer ${CANARY.jwt}`, cookie: CANARY.cookie },
        proxyUrl: `http://user:${CANARY.proxyPassword}@127.0.0.1:9000`,
        target: `http://user:${CANARY.proxyPassword}@proxy.local:8000/x`,
      },
      'canary: credential saved',
    );
    log.warn(
      `canary: refresh failed for Bearer ${CANARY.jwtInText} with client_secret=${CANARY.clientSecretInText}`,
    );
    log.error(
      {
        err: new Error(
          `canary upstream answered {"access_token":"${CANARY.accessToken}","refresh_token":"${CANARY.refreshToken}"}`,
        ),
      },
      'canary: reddit token exchange failed',
    );
    log
      .child({ name: 'ai-service' })
      .info(
        { mail: { to: 'jane@example.com', text: CANARY.emailBody }, body: CANARY.emailBody, draft: 42 },
        'canary: ai draft written',
      );
    log.debug({ password: CANARY.password, token: CANARY.accessToken }, 'canary: debug line');
    // A failed query's error carries its bound values; logged without a message, pino makes it the message.
    const failed = await t.ctx.db.execute(sql`select ${CANARY.boundValue}::int as canary_n`).then(
      () => null,
      (e: unknown) => e as Error,
    );
    log.error(failed);

    const stored = await storedSince(startedAt);
    const text = stored.join('\n');
    // The lines are there...
    expect(text).toContain('GET /api/v1/system/logs?search=canary-request 401');
    expect(text).toContain('GET /api/v1/auth/v3-login?v3=[redacted] 401');
    expect(text).toContain('POST /api/v1/reddit-credentials 201');
    expect(text).toContain('GET /billing/local-portal/bps_local_[redacted] 404');
    expect(text).toContain('POST /billing/local-checkout/cs_local_[redacted]/complete');
    expect(text).toContain('canary: credential saved');
    expect(text).toContain('canary: refresh failed for Bearer [redacted] with client_secret=[redacted]');
    expect(text).toContain('canary: reddit token exchange failed: canary upstream answered');
    expect(text).toContain('canary: debug line');
    expect(text).toContain('Failed query: select $1::int as canary_n');
    const ai = stored.find((r) => r.includes('canary: ai draft written'))!;
    expect(JSON.parse(ai)).toMatchObject({ logger: 'ai-service', level: 'INFO' });
    expect(stored.find((r) => r.includes('canary-request'))).toContain('"logger":"http.access"');
    // ...and not one canary.
    const leaks = Object.entries(CANARY).filter(([, value]) => text.includes(value));
    expect(leaks.map(([name]) => name)).toEqual([]);
    // The tokens of the signed-in admin neither.
    expect(text).not.toContain(admin.token);

    // stdout, the operator's log, holds none of the secrets either (it keeps what people wrote, such as
    // an e-mail body, which /logs does not show).
    const printed = stdout.join('');
    expect(printed).toContain('canary: refresh failed for Bearer [redacted] with client_secret=[redacted]');
    expect(printed).toContain('canary: reddit token exchange failed');
    const secrets = Object.entries(CANARY).filter(([name]) => name !== 'emailBody');
    expect(secrets.filter(([, value]) => printed.includes(value)).map(([name]) => name)).toEqual([]);
    expect(printed).not.toContain(admin.token);
  });

  it('answers requests as usual when the log lines cannot be stored', async () => {
    const since = new Date();
    const before = t.ctx.systemLogs!.counts.dropped;
    const insert = vi.spyOn(t.ctx.db, 'execute').mockImplementation(() => {
      throw new Error('database is away');
    });
    try {
      for (let i = 0; i < 3; i++) {
        const res = await fetch(`${t.url}/api/v1/system/logs?search=lost-line`, { headers: admin.auth });
        expect(res.status).toBe(200);
      }
      await t.ctx.systemLogs!.flush();
      expect(t.ctx.systemLogs!.counts.dropped).toBeGreaterThan(before);
    } finally {
      insert.mockRestore();
    }
    // Lines logged after the database is back are stored again.
    t.ctx.log.info('canary: database back');
    const stored = await storedSince(since);
    expect(stored.some((r) => r.includes('canary: database back'))).toBe(true);
    expect(stored.some((r) => r.includes('lost-line'))).toBe(false);
  });
});
