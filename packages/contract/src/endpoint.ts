import { z } from 'zod';

export type THttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** What a route does with the data it reaches: READONLY accounts and admins on others' projects only read. */
export type TAccess = 'read' | 'write';

/**
 * Where a request names an id: a path parameter, a query parameter or a body field (a string or an array).
 * With `key`, the field is an array of objects and the ids are each object's `key` field
 * (`messages: [{id, message_content}]` is `{in: 'body', name: 'messages', key: 'id'}`).
 */
export interface TIdField {
  in: 'params' | 'query' | 'body';
  name: string;
  key?: string;
}

/**
 * Who may call a route, enforced by the server before the handler runs and checked by the generated
 * tenant-isolation test:
 * - `public`: anyone, with or without a token;
 * - `user`: any signed-in account; with `self`, an id that must be the caller's own (admins: anyone's);
 * - `moderator`, `admin`: that rank or higher;
 * - `project`: the project named by `project` must be the caller's (admins may read others'); with
 *   `optional`, a request that names no project reaches only the caller's own data across projects;
 * - `child`: the owning project of the resource id(s) in `id` is loaded and checked like `project`;
 *   with `project` as well, the resource must belong to that very project; with `optionalId` (only
 *   beside `project`), a request without the id is checked on the named project alone.
 * Project and child scopes with `adminWrites` let admins write on customers' projects too, where the
 * specification gives them that right (spec section 6: connected accounts, agent settings).
 */
export type TScope =
  | { kind: 'public' }
  | { kind: 'user'; access: TAccess; self?: TIdField }
  | { kind: 'moderator'; access: TAccess }
  | { kind: 'admin'; access: TAccess }
  | { kind: 'project'; access: TAccess; project: TIdField; optional?: boolean; adminWrites?: true }
  | {
      kind: 'child';
      access: TAccess;
      resource: string;
      id: TIdField;
      project?: TIdField;
      optionalId?: boolean;
      adminWrites?: true;
    };

/** Options of project and child scopes. */
export interface TProjectScopeOptions {
  /** Admins may write here on customers' projects as well, not only read. */
  adminWrites?: boolean;
  /** Project scope: a request naming no project reaches only the caller's own data. */
  optional?: boolean;
  /** Child scope beside a project: a request without the id is checked on the named project alone. */
  optionalId?: boolean;
}

export type TScopeKind = TScope['kind'];

const PROJECT_PARAM: TIdField = { in: 'params', name: 'projectId' };

/** Scope constructors, so a declaration reads as `scope: scope.project('write')`. */
export const scope = {
  public: (): TScope => ({ kind: 'public' }),
  user: (access: TAccess, self?: TIdField): TScope => ({ kind: 'user', access, ...(self ? { self } : {}) }),
  moderator: (access: TAccess): TScope => ({ kind: 'moderator', access }),
  admin: (access: TAccess): TScope => ({ kind: 'admin', access }),
  project: (
    access: TAccess,
    project: TIdField = PROJECT_PARAM,
    options: TProjectScopeOptions = {},
  ): TScope => ({
    kind: 'project',
    access,
    project,
    ...(options.optional ? { optional: true } : {}),
    ...(options.adminWrites ? { adminWrites: true } : {}),
  }),
  child: (
    resource: string,
    access: TAccess,
    id: TIdField,
    project?: TIdField,
    options: TProjectScopeOptions = {},
  ): TScope => {
    // Without its id the request is checked on its project, so an optional id needs one.
    if (options.optionalId && !project) throw new Error(`An optional ${resource} id needs a project field`);
    return {
      kind: 'child',
      access,
      resource,
      id,
      ...(project ? { project } : {}),
      ...(options.optionalId ? { optionalId: true } : {}),
      ...(options.adminWrites ? { adminWrites: true } : {}),
    };
  },
};

/** A response status and its body schema; `null` for answers without a JSON body (204, redirects, HTML). */
export type TResponses = Partial<Record<number, z.ZodType | null>>;

/** One route of the API: the single source of its path, its types and who may call it. */
export interface TEndpoint {
  method: THttpMethod;
  /** Full path with `:name` parameters, e.g. `/api/v1/projects/:projectId`. */
  path: string;
  summary: string;
  tags: readonly string[];
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  responses: TResponses;
  scope: TScope;
  /** Left out of the OpenAPI document (browser redirects, provider callbacks). */
  hide?: boolean;
  /** The body is kept as raw bytes (signed webhooks) instead of parsed JSON. */
  rawBody?: boolean;
}

/** Declares an endpoint, keeping its literal types for the server and the web client. */
export function endpoint<const E extends TEndpoint>(definition: E): E {
  return definition.body ? { ...definition, body: strictBody(definition.body) } : definition;
}

/**
 * A body field the API does not know is refused, not dropped: a misspelt setting would "save" nothing.
 * A body declared loose (a listed item sent back whole, as the spec has it) keeps its other fields.
 */
function strictBody(body: z.ZodType): z.ZodType {
  if (body instanceof z.ZodObject) return body.def.catchall === undefined ? body.strict() : body;
  if (body instanceof z.ZodOptional) return strictBody(body.unwrap() as z.ZodType).optional();
  if (body instanceof z.ZodNullable) return strictBody(body.unwrap() as z.ZodType).nullable();
  return body;
}

type TSchemaOut<S> = S extends z.ZodType ? z.output<S> : undefined;
type TSchemaIn<S> = S extends z.ZodType ? z.input<S> : undefined;

/** Statuses that mean success. */
type TSuccessStatus = 200 | 201 | 202 | 204;

/** What a successful call returns: the body of the endpoint's success status, or void without one. */
export type TEndpointResult<E extends TEndpoint> = {
  [S in keyof E['responses'] & TSuccessStatus]: E['responses'][S] extends z.ZodType
    ? z.output<E['responses'][S]>
    : void;
}[keyof E['responses'] & TSuccessStatus];

/** The handler's view of a validated request. */
export interface TEndpointInput<E extends TEndpoint> {
  params: TSchemaOut<E['params']>;
  query: TSchemaOut<E['query']>;
  body: TSchemaOut<E['body']>;
}

type TOptionalIfEmpty<K extends string, T> = T extends undefined
  ? { [P in K]?: undefined }
  : // A query whose every field is optional may be left out.
    Record<never, never> extends T
    ? { [P in K]?: T }
    : { [P in K]: T };

/** What the web client sends: the schemas' input types. */
export type TEndpointRequest<E extends TEndpoint> = TOptionalIfEmpty<'params', TSchemaIn<E['params']>> &
  TOptionalIfEmpty<'query', TSchemaIn<E['query']>> &
  TOptionalIfEmpty<'body', TSchemaIn<E['body']>>;

/** The 2xx status an endpoint answers with, or null when it only redirects or refuses. */
export function successStatus(e: TEndpoint): number | null {
  const statuses = Object.keys(e.responses)
    .map(Number)
    .filter((s) => s >= 200 && s < 300)
    .sort((a, b) => a - b);
  return statuses[0] ?? null;
}

/** The schema of an endpoint's success answer, or null when it has no JSON body. */
export function successSchema(e: TEndpoint): { status: number; schema: z.ZodType | null } {
  const status = successStatus(e);
  if (status === null) throw new Error(`${e.method} ${e.path} declares no success response`);
  return { status, schema: e.responses[status] ?? null };
}

/** The path with its parameters filled in and encoded. */
export function fillPath(path: string, params: Record<string, unknown> | undefined): string {
  return path.replace(/:(\w+)/g, (_m, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null)
      throw new Error(`Missing path parameter '${name}' for ${path}`);
    return encodeURIComponent(String(value));
  });
}

/** `METHOD /path`, the key tests and logs name a route by. */
export function endpointKey(e: Pick<TEndpoint, 'method' | 'path'>): string {
  return `${e.method} ${e.path}`;
}
