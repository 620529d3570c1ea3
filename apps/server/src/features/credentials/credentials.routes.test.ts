import { randomUUID } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RequestBudget } from '../../integrations/reddit';
import { buildProject, buildUser, type TestUser } from '../../test/factories';
import { buildAccount } from '../accounts/accounts.test-support';
import { createTestApp, type TestApp } from '../../test/test-app';

let t: TestApp;
let admin: TestUser;
let moderator: TestUser;
const logLines: string[] = [];

beforeAll(async () => {
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => logLines.push(chunk.toString()));
  t = await createTestApp({ reddit: true, logger: { stream, level: 'trace' } });
  admin = await buildUser(t.ctx.db, t.config, { roles: ['ADMIN'] });
  moderator = await buildUser(t.ctx.db, t.config, { roles: ['MODERATOR'] });
});
afterAll(() => t.close());

const body = (overrides: Record<string, unknown> = {}) => ({
  type: 'search',
  account_name: 'threadreach_bot',
  client_id: `client-${randomUUID().slice(0, 12)}`,
  client_secret: `secret-${randomUUID()}`,
  description: 'search credential',
  ...overrides,
});

async function create(user: TestUser, overrides: Record<string, unknown> = {}) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/reddit-credentials',
    headers: user.auth,
    payload: body(overrides),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

/** Every row of every table, as text: what a database dump would hold. */
async function dumpDatabase(): Promise<string> {
  const tables = await t.ctx.db.execute<{ table_schema: string; table_name: string }>(
    sql`select table_schema, table_name from information_schema.tables
        where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')`,
  );
  const parts: string[] = [];
  for (const { table_schema, table_name } of tables.rows) {
    const rows = await t.ctx.db.execute(
      sql`select * from ${sql.identifier(table_schema)}.${sql.identifier(table_name)}`,
    );
    parts.push(JSON.stringify(rows.rows));
  }
  return parts.join('\n');
}

describe('/reddit-credentials', () => {
  it('creates a credential and never shows its secret again', async () => {
    const created = await create(admin, {
      proxy_preferences: { country: 'US', state: 'NY', city: 'New York' },
    });
    expect(created).toMatchObject({
      type: 'search',
      account_name: 'threadreach_bot',
      enabled: true,
      client_id_prefix: created.client_id.slice(0, 8),
      proxy_preferences: { country: 'US', state: 'NY', city: 'New York' },
      usage_stats: { total_requests: 0, active_clients: 0, connected_accounts: 0 },
      last_used: null,
    });
    expect(created).not.toHaveProperty('client_secret');
  });

  it('counts the connected accounts signed in through a send credential', async () => {
    const credential = await create(admin, { type: 'send', account_name: 'threadreach_send' });
    const owner = await buildUser(t.ctx.db, t.config);
    const project = await buildProject(t.ctx.db, t.config, { owner });
    for (let i = 0; i < 2; i++) await buildAccount(t.ctx.db, project.id, { credentialId: credential.id });
    const detailed = await t.app.inject({
      url: `/api/v1/reddit-credentials/${credential.id}/detailed`,
      headers: admin.auth,
    });
    expect(detailed.json().usage_stats).toMatchObject({ connected_accounts: 2 });
  });

  it('refuses to delete a send credential while connected accounts sign in through it', async () => {
    const credential = await create(admin, { type: 'send', account_name: 'threadreach_send' });
    const owner = await buildUser(t.ctx.db, t.config);
    const project = await buildProject(t.ctx.db, t.config, { owner });
    const accounts = [];
    for (let i = 0; i < 2; i++) {
      accounts.push(
        await buildAccount(t.ctx.db, project.id, {
          credentialId: credential.id,
          refreshTokenCiphertext: 'x',
        }),
      );
    }
    const remove = () =>
      t.app.inject({
        method: 'DELETE',
        url: `/api/v1/reddit-credentials/${credential.id}`,
        headers: admin.auth,
      });
    const credentialOfAccounts = async () =>
      (
        await t.ctx.db.execute<{ c: string | null }>(
          sql`select credential_id as c from reddit_accounts where project_id = ${project.id}`,
        )
      ).rows.map((r) => r.c);

    const refused = await remove();
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      detail:
        '2 connected Reddit accounts sign in through this credential and would have to be re-authenticated ' +
        'if it were deleted. Disable it instead: connected accounts keep working and no new accounts ' +
        'connect through it.',
      code: 'credential_in_use',
    });
    // Nothing changed: the credential is there and its accounts still sign in through it.
    expect(await credentialOfAccounts()).toEqual([credential.id, credential.id]);
    const detailed = await t.app.inject({
      url: `/api/v1/reddit-credentials/${credential.id}/detailed`,
      headers: admin.auth,
    });
    expect(detailed.json().usage_stats.connected_accounts).toBe(2);

    // Disabled, it is still in use.
    await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/reddit-credentials/${credential.id}/enable?enabled=false`,
      headers: admin.auth,
    });
    await t.ctx.db.execute(sql`delete from reddit_accounts where id = ${accounts[0]!.id}`);
    const stillRefused = await remove();
    expect(stillRefused.statusCode).toBe(409);
    expect(stillRefused.json().detail).toMatch(
      /^1 connected Reddit account signs in through this credential/,
    );

    // Once the last account is gone, it can be deleted.
    await t.ctx.db.execute(sql`delete from reddit_accounts where id = ${accounts[1]!.id}`);
    expect((await remove()).statusCode).toBe(204);
  });

  it('refuses a new client ID for a send credential while connected accounts sign in through it', async () => {
    const credential = await create(admin, { type: 'send', account_name: 'threadreach_send' });
    const owner = await buildUser(t.ctx.db, t.config);
    const project = await buildProject(t.ctx.db, t.config, { owner });
    const account = await buildAccount(t.ctx.db, project.id, {
      credentialId: credential.id,
      refreshTokenCiphertext: 'x',
    });
    const update = (payload: Record<string, unknown>) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/v1/reddit-credentials/${credential.id}`,
        headers: admin.auth,
        payload,
      });

    // Reddit grants an account's refresh token to one client ID: another one signs every account out.
    const anotherApp = `another-${randomUUID().slice(0, 12)}`;
    const refused = await update({ client_id: anotherApp });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      detail:
        "1 connected Reddit account signs in through this credential's client ID and would have to be " +
        're-authenticated if it changed. Add a credential for the other Reddit app instead, and disable this ' +
        'one: connected accounts keep working and no new accounts connect through it.',
      code: 'credential_in_use',
    });
    const detailed = await t.app.inject({
      url: `/api/v1/reddit-credentials/${credential.id}/detailed`,
      headers: admin.auth,
    });
    expect(detailed.json().client_id).toBe(credential.client_id);

    // The same client ID, a new secret or a new name change no grant.
    const same = await update({ client_id: credential.client_id, account_name: 'renamed_send' });
    expect(same.statusCode, same.body).toBe(200);
    expect((await update({ client_secret: 'a-rotated-secret' })).statusCode).toBe(200);

    // Without connected accounts, the client ID may change.
    await t.ctx.db.execute(sql`delete from reddit_accounts where id = ${account.id}`);
    const changed = await update({ client_id: anotherApp });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().client_id).toBe(anotherApp);
  });

  it('explains what is wrong with a bad credential and stores nothing', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ account_name: '' }, 'Account name is required'],
      [{ client_id: '   ' }, 'Client ID is required'],
      [{ client_secret: undefined }, 'Client secret is required'],
      [{ type: 'write' }, "type must be 'search' or 'send'"],
      [{ proxy_preferences: { country: 'USA' } }, 'Country code must be at most 2 characters'],
      [{ proxy_preferences: { country: '12' } }, 'Country code must be two letters, such as US'],
      [{ proxy_preferences: { state: 'x'.repeat(11) } }, 'State must be at most 10 characters'],
      [{ proxy_preferences: { city: 'x'.repeat(51) } }, 'City must be at most 50 characters'],
      [{ proxy_preferences: { city: 'a@b:c/d' } }, 'City may contain only letters'],
    ];
    for (const [overrides, detail] of cases) {
      const clientId = `bad-${randomUUID()}`;
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/reddit-credentials',
        headers: admin.auth,
        payload: body({ client_id: clientId, ...overrides }),
      });
      expect(res.statusCode, JSON.stringify(overrides)).toBe(400);
      expect(res.json().detail).toContain(detail);
      expect(res.json().code).toBe('validation_error');
    }
    const rows = await t.ctx.db.execute(sql`select id from reddit_credentials where client_id like 'bad-%'`);
    expect(rows.rows).toHaveLength(0);
  });

  it('refuses a second credential with the same client id', async () => {
    const first = await create(admin);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/reddit-credentials',
      headers: moderator.auth,
      payload: body({ client_id: first.client_id }),
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      detail: 'A credential with this client ID already exists.',
      code: 'duplicate_client_id',
    });
  });

  it('lists by type, hides disabled ones unless asked, and pages', async () => {
    const send = await create(moderator, { type: 'send' });
    const disabled = await create(moderator, { type: 'send', enabled: false });
    const list = async (query: string) =>
      (await t.app.inject({ url: `/api/v1/reddit-credentials?${query}`, headers: admin.auth })).json();
    const sendOnly = await list('credential_type=send&limit=500');
    expect(sendOnly.items.every((c: { type: string }) => c.type === 'send')).toBe(true);
    expect(sendOnly.items.map((c: { id: string }) => c.id)).toContain(send.id);
    expect(sendOnly.items.map((c: { id: string }) => c.id)).not.toContain(disabled.id);
    const all = await list('credential_type=send&include_disabled=true&limit=500');
    expect(all.items.map((c: { id: string }) => c.id)).toContain(disabled.id);
    const page = await list('include_disabled=true&limit=1&offset=1');
    expect(page).toMatchObject({ limit: 1, offset: 1 });
    expect(page.items).toHaveLength(1);
    expect(page.total).toBeGreaterThanOrEqual(3);
    const bad = await t.app.inject({
      url: '/api/v1/reddit-credentials?credential_type=x',
      headers: admin.auth,
    });
    expect(bad.statusCode).toBe(400);
  });

  it('keeps the current secret when an update leaves it out, and replaces it when given', async () => {
    const created = await create(admin);
    const secretOf = async () =>
      (
        await t.ctx.db.execute<{ s: string }>(
          sql`select client_secret as s from reddit_credentials where id = ${created.id}`,
        )
      ).rows[0]!.s;
    const before = await secretOf();
    const renamed = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/reddit-credentials/${created.id}`,
      headers: admin.auth,
      payload: { account_name: 'renamed_bot', description: null, proxy_preferences: { country: 'de' } },
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({
      account_name: 'renamed_bot',
      description: null,
      proxy_preferences: { country: 'de', state: null, city: null },
    });
    expect(await secretOf()).toBe(before);

    const rotated = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/reddit-credentials/${created.id}`,
      headers: admin.auth,
      payload: { client_secret: 'a-new-secret' },
    });
    expect(rotated.statusCode).toBe(200);
    expect(await secretOf()).not.toBe(before);
    const empty = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/reddit-credentials/${created.id}`,
      headers: admin.auth,
      payload: { client_secret: '' },
    });
    expect(empty.statusCode).toBe(400);
  });

  it('enables, disables and deletes', async () => {
    const created = await create(admin);
    const off = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/reddit-credentials/${created.id}/enable?enabled=false`,
      headers: admin.auth,
    });
    expect(off.json().enabled).toBe(false);
    const on = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/reddit-credentials/${created.id}/enable?enabled=true`,
      headers: admin.auth,
    });
    expect(on.json().enabled).toBe(true);
    const bad = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/reddit-credentials/${created.id}/enable?enabled=maybe`,
      headers: admin.auth,
    });
    expect(bad.statusCode).toBe(400);

    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/reddit-credentials/${created.id}`,
      headers: admin.auth,
    });
    expect(del.statusCode).toBe(204);
    const again = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/reddit-credentials/${created.id}`,
      headers: admin.auth,
    });
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ detail: 'Credential not found', code: 'not_found' });
    const notUuid = await t.app.inject({
      url: '/api/v1/reddit-credentials/nope/detailed',
      headers: admin.auth,
    });
    expect(notUuid.statusCode).toBe(400);
  });

  it('tests the connection with a real call and shows it in the efficiency statistics', async () => {
    const created = await create(admin);
    const test = await t.app.inject({
      method: 'POST',
      url: `/api/v1/reddit-credentials/${created.id}/test`,
      headers: admin.auth,
    });
    expect(test.statusCode).toBe(200);
    expect(test.json()).toMatchObject({ can_connect: true, error: null });
    expect(test.json().response_time_ms).toBeGreaterThanOrEqual(0);

    const detailed = (
      await t.app.inject({ url: `/api/v1/reddit-credentials/${created.id}/detailed`, headers: admin.auth })
    ).json();
    expect(detailed.efficiency_stats).toMatchObject({
      total_requests: 2, // the token grant and the listing
      success_count: 2,
      failure_count: 0,
      success_rate_percent: 100,
      error_rate_percent: 0,
      active_clients: 1,
      total_clients_created: 1,
      total_proxy_requests: 0,
      proxy_health_status: null,
    });
    expect(detailed.proxy_masked).toBeNull();
    expect(detailed.last_used).not.toBeNull();
    expect(t.sim!.inspect.requestLog({ clientId: created.client_id }).length).toBeGreaterThan(0);
  });

  it('answers a connection test at once while Reddit asked for a pause, instead of waiting for it', async () => {
    const created = await create(admin);
    const freeAt = t.ctx.clock.now() + 10 * 60_000;
    await new RequestBudget(t.ctx.db, t.ctx.clock).blockUntil(created.client_id, freeAt);
    const test = await t.app.inject({
      method: 'POST',
      url: `/api/v1/reddit-credentials/${created.id}/test`,
      headers: admin.auth,
    });
    expect(test.statusCode).toBe(200);
    expect(test.json()).toMatchObject({
      can_connect: false,
      error: expect.stringMatching(/^Reddit asked for a pause in requests until /),
    });
    expect(t.sim!.inspect.requestLog({ clientId: created.client_id })).toEqual([]);
  });

  it('reports a refused secret as a failed connection test', async () => {
    // Pin a secret in the simulator, then present another one.
    const pinned = await create(admin);
    await t.app.inject({
      method: 'POST',
      url: `/api/v1/reddit-credentials/${pinned.id}/test`,
      headers: admin.auth,
    });
    await t.app.inject({
      method: 'PUT',
      url: `/api/v1/reddit-credentials/${pinned.id}`,
      headers: admin.auth,
      payload: { client_secret: 'not-the-pinned-secret' },
    });
    const test = await t.app.inject({
      method: 'POST',
      url: `/api/v1/reddit-credentials/${pinned.id}/test`,
      headers: admin.auth,
    });
    expect(test.json()).toMatchObject({ can_connect: false });
    expect(test.json().error).toMatch(/refused/);
  });

  it('keeps a canary secret out of every response, log line and the database', async () => {
    const canary = `CANARY-${randomUUID()}`;
    const responses: string[] = [];
    const call = async (method: string, url: string, payload?: unknown) => {
      const res = await t.app.inject({
        method: method as 'GET',
        url,
        headers: admin.auth,
        payload: payload as object,
      });
      responses.push(res.body);
      return res;
    };
    const created = (
      await call('POST', '/api/v1/reddit-credentials', body({ client_secret: canary }))
    ).json();
    await call('GET', '/api/v1/reddit-credentials?include_disabled=true&limit=500');
    await call('GET', `/api/v1/reddit-credentials/${created.id}/detailed`);
    await call('POST', `/api/v1/reddit-credentials/${created.id}/test`);
    await call('PUT', `/api/v1/reddit-credentials/${created.id}`, {
      client_secret: `${canary}-2`,
      account_name: 'x_bot',
    });
    await call('POST', `/api/v1/reddit-credentials/${created.id}/test`);
    await call('PATCH', `/api/v1/reddit-credentials/${created.id}/enable?enabled=false`);
    await call('GET', '/api/v1/proxy-pool/details');
    // A bad request echoes nothing of the secret either.
    await call('POST', '/api/v1/reddit-credentials', { ...body({ client_secret: canary }), type: 'nope' });

    expect(responses.join('\n')).not.toContain('CANARY');
    expect(logLines.length).toBeGreaterThan(0);
    expect(logLines.join('')).not.toContain('CANARY');
    expect(await dumpDatabase()).not.toContain('CANARY');
  });

  it('is closed to customers and read-only accounts', async () => {
    const user = await buildUser(t.ctx.db, t.config, { roles: ['USER'] });
    const readonly = await buildUser(t.ctx.db, t.config, { roles: ['READONLY'] });
    for (const who of [user, readonly]) {
      const res = await t.app.inject({ url: '/api/v1/reddit-credentials', headers: who.auth });
      expect(res.statusCode).toBe(403);
    }
    const anonymous = await t.app.inject({ url: '/api/v1/proxy-pool/stats' });
    expect(anonymous.statusCode).toBe(401);
  });
});
