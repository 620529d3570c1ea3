import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { endpointKey, fillPath, type TEndpoint, type TIdField } from '@threadreach/contract';
import type { Config } from '../config/config';
import type { Db } from '../db/client';
import { buildProject, buildUser, type TestUser } from './factories';

/** Creates one resource of a `child` scope's kind inside a project and returns its id. */
export type ChildFixture = (db: Db, projectId: string) => Promise<string>;

interface Tenant {
  user: TestUser;
  projectId: string;
  /** One resource of each child kind, by resource name. */
  children: Record<string, string>;
}

/** Two customers with a project and one resource of every kind each, plus the other roles the checks need. */
export interface IsolationWorld {
  app: FastifyInstance;
  db: Db;
  victim: Tenant;
  attacker: Tenant;
  readonly: TestUser;
  moderator: TestUser;
}

export async function buildIsolationWorld(
  app: FastifyInstance,
  db: Db,
  config: Config,
  fixtures: Record<string, ChildFixture>,
): Promise<IsolationWorld> {
  const tenant = async (): Promise<Tenant> => {
    const project = await buildProject(db, config);
    const children: Record<string, string> = {};
    for (const [name, make] of Object.entries(fixtures)) children[name] = await make(db, project.id);
    return { user: project.owner, projectId: project.id, children };
  };
  const victim = await tenant();
  return {
    app,
    db,
    victim,
    attacker: await tenant(),
    readonly: await buildUser(db, config, { roles: ['READONLY'] }),
    moderator: await buildUser(db, config, { roles: ['MODERATOR'] }),
  };
}

/** Every row owned by the victim: each table with a project_id or user_id column, filtered to theirs. */
export async function victimRows(world: IsolationWorld): Promise<string> {
  const { db, victim } = world;
  const columns = await db.execute<{ table_name: string; column_name: string }>(
    sql`select table_name, column_name from information_schema.columns
        where column_name in ('project_id', 'user_id') and table_schema = 'public'
        order by table_name, column_name`,
  );
  const parts: unknown[] = [
    (await db.execute(sql`select * from projects where id = ${victim.projectId}`)).rows,
    (await db.execute(sql`select * from users where id = ${victim.user.id}`)).rows,
  ];
  for (const { table_name, column_name } of columns.rows) {
    const owner = column_name === 'project_id' ? victim.projectId : victim.user.id;
    const rows = await db.execute(
      sql`select * from ${sql.identifier(table_name)} where ${sql.identifier(column_name)} = ${owner} order by 1`,
    );
    parts.push({ [`${table_name}.${column_name}`]: rows.rows });
  }
  return JSON.stringify(parts);
}

interface Field {
  in: TIdField['in'];
  name: string;
  /** The uuid field of each object of the array `name`. */
  key?: string;
  uuid: boolean;
  array: boolean;
}

const PROJECT_FIELD = /^(project|projects|projectId|projectIds|project_id|project_ids)$/;
const USER_FIELD = /^(user|userId|userIds|user_id|user_ids|owner|ownerId|owner_id)$/;

interface JsonProperty {
  format?: string;
  type?: string;
  items?: JsonProperty & { properties?: Record<string, JsonProperty>; $ref?: string };
}

interface JsonObject {
  properties?: Record<string, JsonProperty>;
  $defs?: Record<string, { properties?: Record<string, JsonProperty> }>;
}

function jsonSchemaOf(schema: z.ZodType | undefined): JsonObject {
  if (!schema) return {};
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonObject;
}

/** The properties of the objects an array holds, following a `$ref` to a named schema. */
function itemProperties(root: JsonObject, prop: JsonProperty): Record<string, JsonProperty> {
  const items = prop.items;
  if (!items) return {};
  if (items.$ref) return root.$defs?.[items.$ref.replace('#/$defs/', '')]?.properties ?? {};
  return items.properties ?? {};
}

/**
 * Every field of a route that could name something: path parameters, query and top-level body fields, and
 * the uuid fields of the objects a body array holds.
 */
export function fieldsOf(e: TEndpoint): Field[] {
  const fields: Field[] = [];
  const params = jsonSchemaOf(e.params).properties ?? {};
  for (const [, name] of e.path.matchAll(/:(\w+)/g)) {
    fields.push({ in: 'params', name: name!, uuid: params[name!]?.format === 'uuid', array: false });
  }
  for (const [where, schema] of [
    ['query', e.query],
    ['body', e.body],
  ] as const) {
    const root = jsonSchemaOf(schema);
    for (const [name, prop] of Object.entries(root.properties ?? {})) {
      const array = prop.type === 'array';
      fields.push({ in: where, name, uuid: (array ? prop.items?.format : prop.format) === 'uuid', array });
      if (!array || where !== 'body') continue;
      for (const [key, inner] of Object.entries(itemProperties(root, prop))) {
        if (inner.format === 'uuid') fields.push({ in: where, name, key, uuid: true, array: true });
      }
    }
  }
  return fields;
}

const same = (a: TIdField, b: { in: string; name: string; key?: string }) =>
  a.in === b.in && a.name === b.name && a.key === b.key;

function coveredFields(e: TEndpoint): TIdField[] {
  const s = e.scope;
  if (s.kind === 'project') return [s.project];
  if (s.kind === 'child') return s.project ? [s.id, s.project] : [s.id];
  if (s.kind === 'user' && s.self) return [s.self];
  return [];
}

/**
 * What the declaration leaves open: a field naming a project, a user or any uuid that the scope does not
 * check (moderator and admin routes hold no customer's data and are exempt), or a declared field the route
 * does not have.
 */
export function scopeGaps(e: TEndpoint): string[] {
  const key = endpointKey(e);
  const gaps: string[] = [];
  const covered = coveredFields(e);
  const fields = fieldsOf(e);
  for (const declared of covered) {
    if (!fields.some((f) => same(declared, f)))
      gaps.push(`${key}: scope names ${declared.in}.${declared.name}, which the route does not have`);
  }
  if (e.scope.kind === 'moderator' || e.scope.kind === 'admin') return gaps;
  for (const f of fields) {
    const named = f.key !== undefined || PROJECT_FIELD.test(f.name) || USER_FIELD.test(f.name) || f.uuid;
    // Ids inside the rows of a project's list (approve-keywords) are looked up within that project only.
    if (f.key !== undefined && e.scope.kind === 'project') continue;
    if (named && !covered.some((c) => same(c, f))) {
      gaps.push(`${key}: ${f.in}.${f.name} names a resource its ${e.scope.kind} scope does not check`);
    }
  }
  return gaps;
}

interface Attack {
  /** null: no token at all. */
  as: TestUser | null;
  values: Partial<Record<string, unknown>>;
  expect: { status: number; code: string };
  why: string;
  /** Sent while the victim's plan has lapsed, their token still carrying the limit it had. */
  planLapsed?: boolean;
}

function valueKey(f: { in: string; name: string; key?: string }) {
  return f.key === undefined ? `${f.in}.${f.name}` : `${f.in}.${f.name}.${f.key}`;
}

function attacksOn(e: TEndpoint, world: IsolationWorld): Attack[] {
  const { victim, attacker } = world;
  const s = e.scope;
  const fields = fieldsOf(e);
  const notFound = { status: 404, code: 'not_found' };
  const attacks: Attack[] = [];
  const idOf = (f: Field, id: string, own?: string) => (f.array ? [own, id].filter(Boolean) : id);

  // Fields that name a project or a user are always tried with the victim's, whatever the declaration says.
  const victimValues: Record<string, unknown> = {};
  for (const f of fields) {
    if (f.key !== undefined) continue;
    if (PROJECT_FIELD.test(f.name)) victimValues[valueKey(f)] = idOf(f, victim.projectId, attacker.projectId);
    if (USER_FIELD.test(f.name)) victimValues[valueKey(f)] = idOf(f, victim.user.id, attacker.user.id);
  }
  if (Object.keys(victimValues).length && s.kind !== 'moderator' && s.kind !== 'admin') {
    attacks.push({
      as: attacker.user,
      values: victimValues,
      expect: notFound,
      why: "the victim's project or user",
    });
  }

  if (s.kind === 'child') {
    const victimChild = victim.children[s.resource];
    const ownChild = attacker.children[s.resource];
    if (!victimChild || !ownChild)
      throw new Error(`${endpointKey(e)}: no fixture for child resource '${s.resource}'`);
    const idField = fields.find((f) => same(s.id, f));
    const ids = (own: boolean) => (idField?.array ? [...(own ? [ownChild] : []), victimChild] : victimChild);
    const through = (projectId: string) => (s.project ? { [valueKey(s.project)]: projectId } : {});
    attacks.push({
      as: attacker.user,
      values: { [valueKey(s.id)]: ids(false), ...through(victim.projectId) },
      expect: notFound,
      why: s.project ? "the victim's resource through the victim's project" : "the victim's resource",
    });
    if (s.project || idField?.array) {
      attacks.push({
        as: attacker.user,
        values: { [valueKey(s.id)]: ids(true), ...through(attacker.projectId) },
        expect: notFound,
        why: "the victim's resource through the attacker's own project",
      });
    }
  }
  if (s.kind === 'moderator' || s.kind === 'admin') {
    attacks.push({
      as: attacker.user,
      values: {},
      expect: { status: 403, code: 'insufficient_role' },
      why: 'a customer',
    });
  }
  if (s.kind === 'admin') {
    attacks.push({
      as: world.moderator,
      values: {},
      expect: { status: 403, code: 'insufficient_role' },
      why: 'a moderator',
    });
  }
  if (s.kind !== 'public') {
    attacks.push({ as: null, values: {}, expect: { status: 401, code: 'unauthorized' }, why: 'no token' });
  }
  // Moderator and admin routes refuse READONLY accounts for their rank already.
  if ((s.kind === 'user' || s.kind === 'project' || s.kind === 'child') && s.access === 'write') {
    attacks.push({
      as: world.readonly,
      values: {},
      expect: { status: 403, code: 'read_only' },
      why: 'a READONLY account',
    });
  }
  // Without a plan a USER changes nothing in a project, not even their own; only deleting stays open.
  if ((s.kind === 'project' || s.kind === 'child') && s.access === 'write' && e.method !== 'DELETE') {
    const own: Record<string, unknown> = {};
    if (s.project) own[valueKey(s.project)] = victim.projectId;
    if (s.kind === 'child') own[valueKey(s.id)] = victim.children[s.resource];
    attacks.push({
      as: victim.user,
      values: own,
      expect: { status: 403, code: 'subscription_required' },
      why: 'its owner without a subscription',
      planLapsed: true,
    });
  }
  return attacks;
}

async function send(world: IsolationWorld, e: TEndpoint, attack: Attack) {
  const params: Record<string, unknown> = {};
  for (const [, name] of e.path.matchAll(/:(\w+)/g))
    params[name!] = attack.values[`params.${name}`] ?? randomUUID();
  const query = new URLSearchParams();
  const body: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(attack.values)) {
    const [where, name, idKey] = key.split('.') as [string, string, string | undefined];
    if (where === 'query') query.set(name, Array.isArray(value) ? value.join(',') : String(value));
    if (where === 'body') {
      body[name] = idKey === undefined ? value : [value].flat().map((id) => ({ [idKey]: id }));
    }
  }
  const qs = query.toString();
  const withBody = e.method !== 'GET' && !e.rawBody;
  return world.app.inject({
    method: e.method,
    url: fillPath(e.path, params) + (qs ? `?${qs}` : ''),
    headers: attack.as?.auth ?? {},
    ...(withBody ? { payload: body } : {}),
  });
}

/** The `code` of an error answer; an answer that is not one (a 204, a page) has none. */
function codeOf(body: string): unknown {
  try {
    return (JSON.parse(body) as { code?: unknown } | null)?.code;
  } catch {
    return undefined;
  }
}

/** Runs `act` with the victim's profiles_limit at 0, then puts it back; their row is left as it was. */
async function withLapsedPlan<T>(world: IsolationWorld, act: () => Promise<T>): Promise<T> {
  const { db, victim } = world;
  const before = await db.execute<{ profiles_limit: number }>(
    sql`select profiles_limit from users where id = ${victim.user.id}`,
  );
  await db.execute(sql`update users set profiles_limit = 0 where id = ${victim.user.id}`);
  try {
    return await act();
  } finally {
    await db.execute(
      sql`update users set profiles_limit = ${before.rows[0]!.profiles_limit} where id = ${victim.user.id}`,
    );
  }
}

/**
 * Calls a route the ways another tenant would reach into the victim's data, as its shape and its declared
 * scope suggest, and returns what went wrong: gaps in the declaration, answers other than the expected
 * refusal, and any change to the victim's rows.
 */
export async function isolationFailures(world: IsolationWorld, e: TEndpoint): Promise<string[]> {
  const failures = scopeGaps(e);
  const before = await victimRows(world);
  for (const attack of attacksOn(e, world)) {
    const res = attack.planLapsed
      ? await withLapsedPlan(world, () => send(world, e, attack))
      : await send(world, e, attack);
    const code = codeOf(res.body);
    if (res.statusCode !== attack.expect.status || code !== attack.expect.code) {
      failures.push(
        `${endpointKey(e)} as ${attack.why}: expected ${attack.expect.status} ${attack.expect.code}, got ${res.statusCode} ${String(code)}`,
      );
    }
  }
  if ((await victimRows(world)) !== before) failures.push(`${endpointKey(e)} changed the victim's rows`);
  return failures;
}

/** The contract declaration of every route the app registered (HEAD twins left out). */
export function declaredEndpoints(
  app: FastifyInstance & { routeTable?: { method: unknown; config?: unknown }[] },
): TEndpoint[] {
  const seen = new Set<TEndpoint>();
  for (const r of app.routeTable ?? []) {
    const e = (r.config as { endpoint?: TEndpoint } | undefined)?.endpoint;
    if (e) seen.add(e);
  }
  return [...seen];
}
