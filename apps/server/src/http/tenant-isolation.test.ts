import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { buildProject, buildUser, validProductInfo, type TestUser } from '../test/factories';
import { createTestApp, type TestApp } from '../test/test-app';
import { RANK_MODERATOR } from '@threadreach/contract';
import { isWriteMethod } from './methods';

/**
 * Walks the live route table: every route that names a project (path `:projectId`, query or body
 * `project_id`) is called with another customer's token and must answer 404 and change nothing.
 * A route with any other path parameter must be listed here with its own case, so no new route
 * goes unchecked.
 */
const ROUTES_WITH_OTHER_RESOURCE_IDS: Record<string, string> = {
  'GET /api/v1/users/:userId/subscription': "another customer's subscription is a 404 (case below)",
  'HEAD /api/v1/users/:userId/subscription': 'the same handler as GET',
};

let t: TestApp;
let victim: Awaited<ReturnType<typeof buildProject>>;
let attacker: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  victim = await buildProject(t.ctx.db, t.config);
  await t.app.inject({
    method: 'PUT',
    url: `/api/v1/projects/${victim.id}/product-info`,
    headers: victim.owner.auth,
    payload: validProductInfo(),
  });
  attacker = await buildUser(t.ctx.db, t.config, { profilesLimit: 10 });
});
afterAll(() => t.close());

/** Every row that belongs to the victim's project, across every table that has a project_id. */
async function snapshot(): Promise<string> {
  const tables = await t.ctx.db.execute<{ table_name: string }>(
    sql`select table_name from information_schema.columns where column_name = 'project_id' and table_schema = 'public' order by table_name`,
  );
  const parts: unknown[] = [
    (await t.ctx.db.execute(sql`select * from projects where id = ${victim.id}`)).rows,
  ];
  for (const { table_name } of tables.rows) {
    const rows = await t.ctx.db.execute(
      sql`select * from ${sql.identifier(table_name)} where project_id = ${victim.id} order by 1`,
    );
    parts.push({ [table_name]: rows.rows });
  }
  return JSON.stringify(parts);
}

function isModeratorOnly(route: { config?: unknown }): boolean {
  return ((route.config as { minRank?: number } | undefined)?.minRank ?? 0) >= RANK_MODERATOR;
}

function shapeHas(schema: unknown, key: string): boolean {
  const shape = (schema as z.ZodObject | undefined)?.shape;
  return !!shape && typeof shape === 'object' && key in shape;
}

describe('tenant isolation', () => {
  it("answers 404 and changes nothing on every route that names another customer's project", async () => {
    const before = await snapshot();
    const checked: string[] = [];
    for (const route of t.app.routeTable) {
      if (!route.url.startsWith('/api/v1/')) continue;
      const params = [...route.url.matchAll(/:(\w+)/g)].map((m) => m[1]!);
      const others = params.filter((p) => p !== 'projectId');
      const key = `${[route.method].flat().join(',')} ${route.url}`;
      if (others.length) {
        // Moderator-only routes hold no customer's data; the test below proves customers are refused.
        if (isModeratorOnly(route)) continue;
        expect(ROUTES_WITH_OTHER_RESOURCE_IDS[key], `${key} needs an isolation case`).toBeDefined();
        continue;
      }
      const inQuery = shapeHas(route.schema?.querystring, 'project_id');
      const inBody = shapeHas(route.schema?.body, 'project_id');
      if (!params.includes('projectId') && !inQuery && !inBody) continue;

      for (const method of [route.method].flat().filter((m) => m !== 'HEAD' && m !== 'OPTIONS')) {
        const url = route.url.replace(':projectId', victim.id) + (inQuery ? `?project_id=${victim.id}` : '');
        const payload = isWriteMethod(method)
          ? { ...validProductInfo(), name: 'x', project_id: victim.id }
          : undefined;
        const res = await t.app.inject({ method: method as 'GET', url, headers: attacker.auth, payload });
        expect(res.statusCode, `${method} ${route.url}`).toBe(404);
        expect(res.json(), `${method} ${route.url}`).toMatchObject({ code: 'not_found' });
        checked.push(`${method} ${route.url}`);
      }
    }
    expect(checked).toEqual(
      expect.arrayContaining([
        'GET /api/v1/projects/:projectId',
        'PUT /api/v1/projects/:projectId',
        'DELETE /api/v1/projects/:projectId',
        'GET /api/v1/projects/:projectId/product-info',
        'POST /api/v1/projects/:projectId/product-info',
        'PUT /api/v1/projects/:projectId/product-info',
      ]),
    );
    expect(await snapshot()).toBe(before);
  });

  it('refuses customers on every moderator-only route and changes nothing', async () => {
    const tables = async () =>
      JSON.stringify(
        (await t.ctx.db.execute(sql`select count(*) as n from reddit_credentials`)).rows.concat(
          (await t.ctx.db.execute(sql`select count(*) as n from credential_proxies`)).rows,
        ),
      );
    const before = await tables();
    const routes = t.app.routeTable.filter((r) => r.url.startsWith('/api/v1/') && isModeratorOnly(r));
    expect(routes.length).toBeGreaterThanOrEqual(10);
    for (const route of routes) {
      for (const method of [route.method].flat().filter((m) => m !== 'HEAD' && m !== 'OPTIONS')) {
        const url = route.url.replace(/:(\w+)/g, randomUUID()) + '?enabled=true';
        const payload = isWriteMethod(method)
          ? { type: 'search', account_name: 'x', client_id: `x-${randomUUID()}`, client_secret: 'x' }
          : undefined;
        const res = await t.app.inject({ method: method as 'GET', url, headers: attacker.auth, payload });
        expect(res.statusCode, `${method} ${route.url}`).toBe(403);
        expect(res.json().code, `${method} ${route.url}`).toBe('insufficient_role');
      }
    }
    expect(await tables()).toBe(before);
  });

  it('gives the same 404 for a project that does not exist', async () => {
    const res = await t.app.inject({ url: `/api/v1/projects/${randomUUID()}`, headers: attacker.auth });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'Project not found', code: 'not_found' });
  });

  it("answers 404 for another customer's subscription, as for a user that does not exist", async () => {
    const res = await t.app.inject({
      url: `/api/v1/users/${victim.owner.id}/subscription`,
      headers: attacker.auth,
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'User not found', code: 'not_found' });
    const missing = await t.app.inject({
      url: `/api/v1/users/${randomUUID()}/subscription`,
      headers: attacker.auth,
    });
    expect(missing.json()).toEqual(res.json());
    const own = await t.app.inject({
      url: `/api/v1/users/${victim.owner.id}/subscription`,
      headers: victim.owner.auth,
    });
    expect(own.json()).toMatchObject({ user_id: victim.owner.id, user_email: victim.owner.email });
    expect(
      JSON.stringify(
        (
          await t.app.inject({ url: `/api/v1/users/${attacker.id}/subscription`, headers: attacker.auth })
        ).json(),
      ),
    ).not.toContain(victim.owner.email);
  });

  it("never lists another customer's project", async () => {
    const res = await t.app.inject({ url: '/api/v1/projects?limit=500', headers: attacker.auth });
    expect(res.json().items.map((p: { id: string }) => p.id)).not.toContain(victim.id);
  });
});
