import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { buildProject, buildUser, validProductInfo, type TestUser } from '../test/factories';
import { createTestApp, type TestApp } from '../test/test-app';
import { isWriteMethod } from './methods';

/**
 * Walks the live route table: every route that names a project (path `:projectId`, query or body
 * `project_id`) is called with another customer's token and must answer 404 and change nothing.
 * A route with any other path parameter must be listed here with its own case, so no new route
 * goes unchecked.
 */
const ROUTES_WITH_OTHER_RESOURCE_IDS: Record<string, string> = {};

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

  it('gives the same 404 for a project that does not exist', async () => {
    const res = await t.app.inject({ url: `/api/v1/projects/${randomUUID()}`, headers: attacker.auth });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'Project not found', code: 'not_found' });
  });

  it("never lists another customer's project", async () => {
    const res = await t.app.inject({ url: '/api/v1/projects?limit=500', headers: attacker.auth });
    expect(res.json().items.map((p: { id: string }) => p.id)).not.toContain(victim.id);
  });
});
