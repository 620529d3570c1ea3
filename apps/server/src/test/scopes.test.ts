import { sql } from 'drizzle-orm';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { endpoint, scope, ZUuid, type TEndpoint, type TScope } from '@threadreach/contract';
import type { Db } from '../db/client';
import { registerAuthGuard } from '../features/auth';
import { registerProjectScope, type ChildResource } from '../features/projects';
import { requireDeclaredRoutes, route } from '../http/endpoints';
import { registerErrorHandling } from '../http/errors';
import { createTestApp, type TestApp } from './test-app';
import { buildIsolationWorld, isolationFailures, type IsolationWorld } from './tenant-isolation.test-support';

/**
 * Throwaway routes of each scope kind, each with a handler that trusts its input: registered with their
 * scope they pass the generated isolation checks; with a weaker scope the checks catch them; with none the
 * server refuses to start.
 */
const widgets: ChildResource = {
  name: 'test-widget',
  notFoundDetail: 'Widget not found',
  async ownersOf(db, ids) {
    const rows = await db.execute<{ id: string; project_id: string }>(
      sql`select id, project_id from test_widgets where id in ${sql`(${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )})`}`,
    );
    return new Map(rows.rows.map((r) => [r.id, r.project_id]));
  },
};

async function createWidgetTable(db: Db) {
  await db.execute(sql`create table if not exists test_widgets (
    id uuid primary key default gen_random_uuid(),
    project_id uuid not null references projects(id) on delete cascade,
    name text not null
  )`);
}

const ZProjectParams = z.object({ projectId: ZUuid });
const ZWidgetParams = z.object({ projectId: ZUuid, widgetId: ZUuid });
const ZRows = z.array(z.record(z.string(), z.unknown()));

const tags = ['test'];
/** Each kind's route with its right scope; `weaker` is the scope a careless declaration would give it. */
const KINDS: { kind: string; endpoint: TEndpoint; weaker: TScope | null }[] = [
  {
    kind: 'project (path)',
    endpoint: endpoint({
      method: 'GET',
      path: '/api/v1/test/projects/:projectId/name',
      summary: 'x',
      tags,
      scope: scope.project('read'),
      params: ZProjectParams,
      responses: { 200: ZRows },
    }),
    weaker: scope.user('read'),
  },
  {
    kind: 'project (?project=)',
    endpoint: endpoint({
      method: 'GET',
      path: '/api/v1/test/report',
      summary: 'x',
      tags,
      scope: scope.project('read', { in: 'query', name: 'project' }),
      query: z.object({ project: ZUuid }),
      responses: { 200: ZRows },
    }),
    weaker: scope.user('read'),
  },
  {
    kind: 'project (body, write)',
    endpoint: endpoint({
      method: 'POST',
      path: '/api/v1/test/rename',
      summary: 'x',
      tags,
      scope: scope.project('write', { in: 'body', name: 'project_id' }),
      body: z.object({ project_id: ZUuid }),
      responses: { 200: ZRows },
    }),
    weaker: scope.user('write'),
  },
  {
    kind: 'project (optional ?project=)',
    endpoint: endpoint({
      method: 'GET',
      path: '/api/v1/test/optional-report',
      summary: 'x',
      tags,
      scope: scope.project('read', { in: 'query', name: 'project' }, { optional: true }),
      query: z.object({ project: ZUuid.optional() }),
      responses: { 200: ZRows },
    }),
    weaker: scope.user('read'),
  },
  {
    kind: 'child with an optional id, through its project',
    endpoint: endpoint({
      method: 'POST',
      path: '/api/v1/test/widgets/touch',
      summary: 'x',
      tags,
      scope: scope.child(
        'test-widget',
        'write',
        { in: 'body', name: 'widget_id' },
        { in: 'body', name: 'project_id' },
        { optionalId: true },
      ),
      body: z.object({ project_id: ZUuid, widget_id: ZUuid.optional() }),
      responses: { 200: ZRows },
    }),
    weaker: scope.project('write', { in: 'body', name: 'project_id' }),
  },
  {
    kind: 'child through its project',
    endpoint: endpoint({
      method: 'DELETE',
      path: '/api/v1/test/projects/:projectId/widgets/:widgetId',
      summary: 'x',
      tags,
      scope: scope.child(
        'test-widget',
        'write',
        { in: 'params', name: 'widgetId' },
        { in: 'params', name: 'projectId' },
      ),
      params: ZWidgetParams,
      responses: { 200: ZRows },
    }),
    weaker: scope.project('write'),
  },
  {
    kind: 'child ids in a body array',
    endpoint: endpoint({
      method: 'POST',
      path: '/api/v1/test/projects/:projectId/widgets/delete',
      summary: 'x',
      tags,
      scope: scope.child(
        'test-widget',
        'write',
        { in: 'body', name: 'widget_ids' },
        { in: 'params', name: 'projectId' },
      ),
      params: ZProjectParams,
      body: z.object({ widget_ids: z.array(ZUuid) }),
      responses: { 200: ZRows },
    }),
    weaker: scope.project('write'),
  },
  {
    kind: 'child ids inside the objects of a body array',
    endpoint: endpoint({
      method: 'POST',
      path: '/api/v1/test/widgets/rename',
      summary: 'x',
      tags,
      scope: scope.child('test-widget', 'write', { in: 'body', name: 'widgets', key: 'id' }),
      body: z.object({ widgets: z.array(z.object({ id: ZUuid, name: z.string() })) }),
      responses: { 200: ZRows },
    }),
    weaker: scope.user('write'),
  },
  {
    kind: 'child alone',
    endpoint: endpoint({
      method: 'GET',
      path: '/api/v1/test/widgets/:widgetId',
      summary: 'x',
      tags,
      scope: scope.child('test-widget', 'read', { in: 'params', name: 'widgetId' }),
      params: z.object({ widgetId: ZUuid }),
      responses: { 200: ZRows },
    }),
    weaker: scope.user('read'),
  },
  {
    kind: 'user (self)',
    endpoint: endpoint({
      method: 'GET',
      path: '/api/v1/test/users/:userId/email',
      summary: 'x',
      tags,
      scope: scope.user('read', { in: 'params', name: 'userId' }),
      params: z.object({ userId: ZUuid }),
      responses: { 200: ZRows },
    }),
    weaker: scope.user('read'),
  },
  {
    kind: 'moderator',
    endpoint: endpoint({
      method: 'GET',
      path: '/api/v1/test/all-users',
      summary: 'x',
      tags,
      scope: scope.moderator('read'),
      responses: { 200: ZRows },
    }),
    weaker: null,
  },
  {
    kind: 'admin',
    endpoint: endpoint({
      method: 'POST',
      path: '/api/v1/test/all-users/wipe-names',
      summary: 'x',
      tags,
      scope: scope.admin('write'),
      responses: { 200: ZRows },
    }),
    weaker: null,
  },
  {
    kind: 'user (write)',
    endpoint: endpoint({
      method: 'POST',
      path: '/api/v1/test/me/touch',
      summary: 'x',
      tags,
      scope: scope.user('write'),
      responses: { 200: ZRows },
    }),
    weaker: null,
  },
];

type Loose = Record<string, string & string[]>;

/** Handlers that trust whatever ids they are given: only the scope stands between them and other tenants. */
async function naiveHandler(db: Db, e: TEndpoint, input: { params?: Loose; query?: Loose; body?: Loose }) {
  const p = input.params ?? {};
  if (p.widgetId && e.method === 'DELETE') {
    return (await db.execute(sql`delete from test_widgets where id = ${p.widgetId} returning *`)).rows;
  }
  if (p.widgetId) return (await db.execute(sql`select * from test_widgets where id = ${p.widgetId}`)).rows;
  if (input.body?.widget_ids) {
    const ids: string[] = input.body.widget_ids;
    return (
      await db.execute(
        sql`delete from test_widgets where id in (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )}) returning *`,
      )
    ).rows;
  }
  if (input.body?.widget_id) {
    return (await db.execute(sql`delete from test_widgets where id = ${input.body.widget_id} returning *`))
      .rows;
  }
  if (input.body?.widgets) {
    const ids = (input.body.widgets as unknown as { id: string }[]).map((w) => w.id);
    return (
      await db.execute(
        sql`update test_widgets set name = 'renamed' where id in (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )}) returning *`,
      )
    ).rows;
  }
  if (input.body?.project_id) {
    return (
      await db.execute(
        sql`update projects set name = 'renamed' where id = ${input.body.project_id} returning id`,
      )
    ).rows;
  }
  const projectId = p.projectId ?? input.query?.project;
  if (projectId) return (await db.execute(sql`select name from projects where id = ${projectId}`)).rows;
  if (p.userId) return (await db.execute(sql`select email from users where id = ${p.userId}`)).rows;
  return (await db.execute(sql`select id from users limit 1`)).rows;
}

async function miniApp(t: TestApp, endpoints: TEndpoint[]): Promise<FastifyInstance> {
  const app = Fastify();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  registerAuthGuard(app, t.config, t.ctx.clock);
  registerProjectScope(app, t.ctx.db, [widgets]);
  for (const e of endpoints)
    route(app, e, async (request) => naiveHandler(t.ctx.db, e, request as never) as never);
  await app.ready();
  return app;
}

let t: TestApp;
let world: IsolationWorld;
beforeAll(async () => {
  t = await createTestApp();
  await createWidgetTable(t.ctx.db);
  const make = async (db: Db, projectId: string) =>
    (
      await db.execute<{ id: string }>(
        sql`insert into test_widgets (project_id, name) values (${projectId}, 'w') returning id`,
      )
    ).rows[0]!.id;
  world = await buildIsolationWorld(t.app, t.ctx.db, t.config, { 'test-widget': make });
});
afterAll(() => t.close());

describe('declared scopes', () => {
  for (const { kind, endpoint: e, weaker } of KINDS) {
    describe(kind, () => {
      it('passes the generated isolation checks with its scope', async () => {
        world.app = await miniApp(t, [e]);
        expect(await isolationFailures(world, e)).toEqual([]);
      });

      it('stops the server at start without a scope', async () => {
        const { scope: _dropped, ...unscoped } = e;
        await expect(miniApp(t, [unscoped as TEndpoint])).rejects.toThrow(/declares no scope/);
      });

      if (weaker) {
        it(`fails the generated checks with a weaker scope (${weaker.kind})`, async () => {
          const careless = { ...e, scope: weaker } as TEndpoint;
          world.app = await miniApp(t, [careless]);
          const failures = await isolationFailures(world, careless);
          expect(failures.length, failures.join('\n')).toBeGreaterThan(0);
        });
      }
    });
  }

  it('refuses to start when a child scope names a resource without an owner loader', async () => {
    const e = endpoint({
      method: 'GET',
      path: '/api/v1/test/gadgets/:gadgetId',
      summary: 'x',
      tags,
      scope: scope.child('gadget', 'read', { in: 'params', name: 'gadgetId' }),
      responses: { 200: ZRows },
    });
    await expect(miniApp(t, [e])).rejects.toThrow(/no owner loader/);
  });

  it('refuses to start when an API route is registered outside the contract', () => {
    const app = Fastify();
    requireDeclaredRoutes(app, '/api/v1');
    expect(() => app.get('/api/v1/undeclared', async () => ({ ok: true }))).toThrow(
      /not declared in the contract/,
    );
  });
});
