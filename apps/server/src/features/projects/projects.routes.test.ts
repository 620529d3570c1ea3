import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProject, buildUser } from '../../test/factories';
import { buildAccount } from '../accounts/accounts.test-support';
import { createTestApp, type TestApp } from '../../test/test-app';
import { SUBSCRIPTION_REQUIRED_DETAIL } from '../auth';
import { updateProfilesLimit } from '../users';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('projects', () => {
  it('creates, lists, updates and deletes a project of its own', async () => {
    const user = await buildUser(t.ctx.db, t.config);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/projects',
      headers: user.auth,
      payload: { name: '  Launch  ', description: 'First campaign' },
    });
    expect(created.statusCode).toBe(201);
    const project = created.json();
    expect(project).toMatchObject({ name: 'Launch', description: 'First campaign', user_id: user.id });
    expect(project.owner_email).toBeUndefined();

    const list = await t.app.inject({ url: '/api/v1/projects', headers: user.auth });
    expect(list.json()).toMatchObject({ total: 1, limit: 100, offset: 0, items: [{ id: project.id }] });

    const updated = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/projects/${project.id}`,
      headers: user.auth,
      payload: { without_keywords: true },
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({ without_keywords: true, name: 'Launch' });

    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/projects/${project.id}`,
      headers: user.auth,
    });
    expect(removed.statusCode).toBe(204);
    const gone = await t.app.inject({ url: `/api/v1/projects/${project.id}`, headers: user.auth });
    expect(gone.statusCode).toBe(404);
  });

  it('refuses a second project of the same name (409), in any letter case, on create and on rename', async () => {
    const user = await buildUser(t.ctx.db, t.config, { profilesLimit: 3 });
    const create = (name: string) =>
      t.app.inject({ method: 'POST', url: '/api/v1/projects', headers: user.auth, payload: { name } });
    const first = (await create('Spring launch')).json();
    const again = await create('  spring LAUNCH ');
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      code: 'project_name_taken',
      detail: 'You already have a project named "spring LAUNCH". Choose another name.',
    });
    const second = (await create('Autumn')).json();
    const rename = (id: string, name: string) =>
      t.app.inject({ method: 'PUT', url: `/api/v1/projects/${id}`, headers: user.auth, payload: { name } });
    expect((await rename(second.id, 'Spring Launch')).statusCode).toBe(409);
    // Its own name, in another case, is no clash; nor is another customer's project of that name.
    expect((await rename(first.id, 'SPRING launch')).statusCode).toBe(200);
    const other = await buildUser(t.ctx.db, t.config);
    const theirs = await t.app.inject({
      method: 'POST',
      url: '/api/v1/projects',
      headers: other.auth,
      payload: { name: 'Spring launch' },
    });
    expect(theirs.statusCode).toBe(201);
  });

  it('paginates the list', async () => {
    const user = await buildUser(t.ctx.db, t.config, { profilesLimit: 5 });
    for (let i = 0; i < 3; i++) await buildProject(t.ctx.db, t.config, { owner: user, name: `P${i}` });
    const page = await t.app.inject({ url: '/api/v1/projects?limit=2&offset=2', headers: user.auth });
    expect(page.json()).toMatchObject({ total: 3, limit: 2, offset: 2 });
    expect(page.json().items).toHaveLength(1);
    // Only decimal digits: an empty value is not 0, nor '0x10' 16, nor '1e2' 100.
    for (const limit of ['0', '', '0x10', '1e2', '%201%20', '2.5', '1&limit=2']) {
      const bad = await t.app.inject({ url: `/api/v1/projects?limit=${limit}`, headers: user.auth });
      expect(bad.statusCode, limit).toBe(400);
      expect(bad.json(), limit).toEqual({
        code: 'validation_error',
        detail: 'limit must be a whole number from 1 to 500',
        errors: expect.any(Array),
      });
    }
    const offset = await t.app.inject({ url: '/api/v1/projects?offset=0o1', headers: user.auth });
    expect(offset.json()).toMatchObject({ detail: 'offset must be a whole number, 0 or more' });
  });

  it('asks for a subscription (402) when profiles_limit is 0', async () => {
    const user = await buildUser(t.ctx.db, t.config, { profilesLimit: 0 });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/projects',
      headers: user.auth,
      payload: { name: 'X' },
    });
    expect(res.statusCode).toBe(402);
    expect(res.json()).toMatchObject({ code: 'subscription_required' });
    expect(res.json().detail).toMatch(/subscription/);
  });

  it('lets a customer whose plan has ended delete their project, but not change it', async () => {
    const user = await buildUser(t.ctx.db, t.config, { profilesLimit: 0 });
    const project = await buildProject(t.ctx.db, t.config, { owner: user });
    const renamed = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/projects/${project.id}`,
      headers: user.auth,
      payload: { name: 'Renamed' },
    });
    expect(renamed.statusCode).toBe(403);
    expect(renamed.json().code).toBe('subscription_required');
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/projects/${project.id}`,
      headers: user.auth,
    });
    expect(removed.statusCode).toBe(204);
    const gone = await t.app.inject({ url: `/api/v1/projects/${project.id}`, headers: user.auth });
    expect(gone.statusCode).toBe(404);
  });

  it('goes by the plan as it stands, not as the token last said it', async () => {
    const user = await buildUser(t.ctx.db, t.config, { profilesLimit: 2 });
    const project = await buildProject(t.ctx.db, t.config, { owner: user });
    const account = await buildAccount(t.ctx.db, project.id);
    const rename = () =>
      t.app.inject({
        method: 'PUT',
        url: `/api/v1/projects/${project.id}`,
        headers: user.auth,
        payload: { name: 'Renamed' },
      });
    // A route naming the project's resource: the plan is read with the project that owns it.
    const reauthenticate = () =>
      t.app.inject({
        method: 'POST',
        url: `/api/v1/projects/${project.id}/accounts/${account.id}/reauthenticate`,
        headers: user.auth,
      });

    // The plan lapses; the token still says 2.
    await updateProfilesLimit(t.ctx.db, user.id, 0);
    for (const res of [await rename(), await reauthenticate()]) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ detail: SUBSCRIPTION_REQUIRED_DETAIL, code: 'subscription_required' });
    }
    const read = await t.app.inject({ url: `/api/v1/projects/${project.id}`, headers: user.auth });
    expect(read.statusCode).toBe(200);

    // A new plan; the token, issued before it, still says 2 and would say 0 for one issued in between.
    const lapsedToken = await buildUser(t.ctx.db, t.config, { profilesLimit: 0 });
    const theirs = await buildProject(t.ctx.db, t.config, { owner: lapsedToken });
    await updateProfilesLimit(t.ctx.db, lapsedToken.id, 1);
    const renamed = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/projects/${theirs.id}`,
      headers: lapsedToken.auth,
      payload: { name: 'Back' },
    });
    expect(renamed.statusCode).toBe(200);
  });

  it('blocks at used >= limit (403), even for concurrent creates', async () => {
    const user = await buildUser(t.ctx.db, t.config, { profilesLimit: 2 });
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        t.app.inject({
          method: 'POST',
          url: '/api/v1/projects',
          headers: user.auth,
          payload: { name: `N${i}` },
        }),
      ),
    );
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(2);
    const refused = results.filter((r) => r.statusCode === 403);
    expect(refused).toHaveLength(3);
    expect(refused[0]!.json()).toMatchObject({ code: 'project_limit_reached' });
    expect(refused[0]!.json().detail).toContain('Project limit reached (2/2)');
  });

  it('lets moderators and admins create without limit', async () => {
    for (const role of ['MODERATOR', 'ADMIN']) {
      const user = await buildUser(t.ctx.db, t.config, { roles: [role], profilesLimit: 0 });
      for (let i = 0; i < 2; i++) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/v1/projects',
          headers: user.auth,
          payload: { name: `M${i}` },
        });
        expect(res.statusCode).toBe(201);
      }
    }
  });

  it('refuses READONLY writes with a detail naming READONLY', async () => {
    const reader = await buildUser(t.ctx.db, t.config, { roles: ['READONLY'] });
    const project = await buildProject(t.ctx.db, t.config, { owner: reader });
    const create = await t.app.inject({
      method: 'POST',
      url: '/api/v1/projects',
      headers: reader.auth,
      payload: { name: 'R' },
    });
    expect(create.statusCode).toBe(403);
    expect(create.json().detail).toContain('READONLY');
    const update = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/projects/${project.id}`,
      headers: reader.auth,
      payload: { name: 'R2' },
    });
    expect(update.statusCode).toBe(403);
    expect(update.json().code).toBe('read_only');
    const read = await t.app.inject({ url: `/api/v1/projects/${project.id}`, headers: reader.auth });
    expect(read.statusCode).toBe(200);
  });

  it('shows admins every project with owner_email, but lets them change only their own', async () => {
    const admin = await buildUser(t.ctx.db, t.config, { roles: ['ADMIN'] });
    const other = await buildProject(t.ctx.db, t.config);
    const list = await t.app.inject({ url: '/api/v1/projects?limit=500', headers: admin.auth });
    const seen = list.json().items.find((p: { id: string }) => p.id === other.id);
    expect(seen).toMatchObject({ owner_email: other.owner.email });
    const one = await t.app.inject({ url: `/api/v1/projects/${other.id}`, headers: admin.auth });
    expect(one.json()).toMatchObject({ owner_email: other.owner.email });
    const edit = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/projects/${other.id}`,
      headers: admin.auth,
      payload: { name: 'taken over' },
    });
    expect(edit.statusCode).toBe(403);
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/projects/${other.id}`,
      headers: admin.auth,
    });
    expect(del.statusCode).toBe(403);
  });

  it('answers bad input with 4xx {detail, code}', async () => {
    const user = await buildUser(t.ctx.db, t.config);
    const cases = [
      { payload: {}, detail: 'Project name is required' },
      { payload: { name: '   ' }, detail: 'Project name is required' },
      { payload: { name: 'x'.repeat(101) }, detail: 'at most 100' },
      { payload: { name: 5 }, detail: 'Project name is required' },
    ];
    for (const c of cases) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/projects',
        headers: user.auth,
        payload: c.payload,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('validation_error');
      expect(res.json().detail).toContain(c.detail);
    }
    const malformed = await t.app.inject({
      method: 'POST',
      url: '/api/v1/projects',
      headers: { ...user.auth, 'content-type': 'application/json' },
      payload: '{"name": ',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ detail: 'Request body is not valid JSON' });
    const notUuid = await t.app.inject({ url: '/api/v1/projects/not-a-uuid', headers: user.auth });
    expect(notUuid.statusCode).toBe(404);
    const emptyUpdate = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/projects/${(await buildProject(t.ctx.db, t.config, { owner: user })).id}`,
      headers: user.auth,
      payload: {},
    });
    expect(emptyUpdate.statusCode).toBe(400);
  });

  it('reports usage on /me', async () => {
    const user = await buildUser(t.ctx.db, t.config, { profilesLimit: 3 });
    await buildProject(t.ctx.db, t.config, { owner: user });
    const me = await t.app.inject({ url: '/api/v1/me', headers: user.auth });
    expect(me.json()).toEqual({
      user_id: user.id,
      email: user.email,
      roles: ['USER'],
      profiles_limit: 3,
      projects_used: 1,
    });
  });
});
