import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_ENDPOINTS, endpointKey } from '@threadreach/contract';
import { buildDm } from '../features/dms/dms.test-support';
import { buildLead, buildProfile } from '../features/leads/leads.test-support';
import { buildProject, buildUser, validProductInfo, type TestUser } from './factories';
import { createTestApp, type TestApp } from './test-app';
import {
  buildIsolationWorld,
  declaredEndpoints,
  isolationFailures,
  type ChildFixture,
  type IsolationWorld,
} from './tenant-isolation.test-support';

/** How to make one resource of each kind a `child` scope names; a kind without one fails the test. */
const CHILD_FIXTURES: Record<string, ChildFixture> = {
  post: async (db, projectId) => (await buildLead(db, projectId, { kind: 'post' })).id,
  comment: async (db, projectId) => (await buildLead(db, projectId, { kind: 'comment' })).id,
  profile: async (db, projectId) => (await buildProfile(db, projectId)).id,
  dm: async (db, projectId) => (await buildDm(db, projectId)).id,
};

let t: TestApp;
let world: IsolationWorld;

beforeAll(async () => {
  t = await createTestApp();
  world = await buildIsolationWorld(t.app, t.ctx.db, t.config, CHILD_FIXTURES);
  await t.app.inject({
    method: 'PUT',
    url: `/api/v1/projects/${world.victim.projectId}/product-info`,
    headers: world.victim.user.auth,
    payload: validProductInfo(),
  });
});
afterAll(() => t.close());

describe('tenant isolation, generated from every declared route', () => {
  it('covers the whole route table: every route under /api/v1 is declared with a scope', () => {
    const declared = new Set(declaredEndpoints(t.app).map(endpointKey));
    const registered = t.app.routeTable
      .filter((r) => r.url.startsWith('/api/v1/'))
      .flatMap((r) =>
        [r.method]
          .flat()
          .filter((m) => m !== 'HEAD')
          .map((m) => `${m} ${r.url}`),
      );
    expect(registered.filter((key) => !declared.has(key))).toEqual([]);
    expect(declared.size).toBeGreaterThanOrEqual(30);
    // And the contract declares nothing the server does not serve.
    expect(ALL_ENDPOINTS.map(endpointKey).filter((key) => !declared.has(key))).toEqual([]);
  });

  it("refuses every other tenant's reach on every route and changes none of the victim's rows", async () => {
    const failures: string[] = [];
    for (const e of declaredEndpoints(t.app)) failures.push(...(await isolationFailures(world, e)));
    expect(failures).toEqual([]);
  });

  it('gives the same 404 for a project that does not exist', async () => {
    const res = await t.app.inject({
      url: `/api/v1/projects/${randomUUID()}`,
      headers: world.attacker.user.auth,
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'Project not found', code: 'not_found' });
  });

  it("answers 404 for another customer's subscription, as for a user that does not exist", async () => {
    const { victim, attacker } = world;
    const url = (id: string) => `/api/v1/users/${id}/subscription`;
    const res = await t.app.inject({ url: url(victim.user.id), headers: attacker.user.auth });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'User not found', code: 'not_found' });
    const missing = await t.app.inject({ url: url(randomUUID()), headers: attacker.user.auth });
    expect(missing.json()).toEqual(res.json());
    const own = await t.app.inject({ url: url(victim.user.id), headers: victim.user.auth });
    expect(own.json()).toMatchObject({ user_id: victim.user.id, user_email: victim.user.email });
  });

  it("never lists another customer's project", async () => {
    const res = await t.app.inject({ url: '/api/v1/projects?limit=500', headers: world.attacker.user.auth });
    expect(res.json().items.map((p: { id: string }) => p.id)).not.toContain(world.victim.projectId);
  });

  it("lets an admin read a customer's project but not change it", async () => {
    const admin: TestUser = await buildUser(t.ctx.db, t.config, { roles: ['ADMIN'] });
    const project = await buildProject(t.ctx.db, t.config);
    const url = `/api/v1/projects/${project.id}`;
    expect((await t.app.inject({ url, headers: admin.auth })).statusCode).toBe(200);
    const put = await t.app.inject({ method: 'PUT', url, headers: admin.auth, payload: { name: 'x' } });
    expect(put.statusCode).toBe(403);
    expect(put.json().code).toBe('not_project_owner');
  });
});
