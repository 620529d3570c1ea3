import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  endpointKey,
  successStatus,
  type TEndpoint,
  type TEndpointInput,
  type TEndpointResult,
  type TIdField,
} from '@threadreach/contract';
import type { z } from 'zod';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The contract's declaration of the route: its scope is enforced before the handler runs. */
    endpoint?: TEndpoint;
  }
}

/** A request as the handler sees it: params, query and body already validated by the endpoint's schemas. */
export type EndpointRequest<E extends TEndpoint> = Omit<FastifyRequest, 'params' | 'query' | 'body'> &
  TEndpointInput<E>;

/**
 * A route handler: returns the body of the endpoint's success status (sent with that status), or the reply
 * itself when it answered on its own (redirects, HTML pages, other statuses).
 */
export type EndpointHandler<E extends TEndpoint> = (
  request: EndpointRequest<E>,
  reply: FastifyReply,
) => Promise<TEndpointResult<E> | FastifyReply>;

/** The declaration of the route a request reached, or null outside the contract (docs, web app, dev sign-in). */
export function endpointOf(request: FastifyRequest): TEndpoint | null {
  return request.routeOptions.config?.endpoint ?? null;
}

/**
 * The raw value(s) a request gives for an id field, before validation: a string, an array, or nothing. With
 * `key`, each element's `key` field (an element that is not an object gives undefined, which no check accepts).
 */
export function rawIdValue(request: FastifyRequest, field: TIdField): unknown {
  const source = field.in === 'params' ? request.params : field.in === 'query' ? request.query : request.body;
  if (!source || typeof source !== 'object') return undefined;
  const value = (source as Record<string, unknown>)[field.name];
  if (field.key === undefined) return value;
  if (!Array.isArray(value)) return undefined;
  return value.map((item: unknown) =>
    item && typeof item === 'object' ? (item as Record<string, unknown>)[field.key!] : undefined,
  );
}

/** The sign-in routes (sign-in, refresh, logout). */
const AUTH_PREFIX = '/api/v1/auth/';

/** Registers one route from its contract declaration; a declaration without a scope stops the server. */
export function route<E extends TEndpoint>(app: FastifyInstance, endpoint: E, handler: EndpointHandler<E>) {
  if (!endpoint.scope?.kind) throw new Error(`${endpointKey(endpoint)} declares no scope`);
  const status = successStatus(endpoint);
  // Only JSON answers are serialized through their schema; HTML pages and redirects are sent as they are.
  const response = Object.fromEntries(
    Object.entries(endpoint.responses).filter((entry): entry is [string, z.ZodType] => !!entry[1]),
  );
  app.route({
    method: endpoint.method,
    url: endpoint.path,
    config: { endpoint },
    // Sign-in answers carry tokens: never compressed, so their length tells nothing about them.
    ...(endpoint.path.startsWith(AUTH_PREFIX) ? { compress: false as const } : {}),
    schema: {
      tags: [...endpoint.tags],
      summary: endpoint.summary,
      ...(endpoint.hide ? { hide: true } : {}),
      ...(endpoint.scope.kind === 'public' ? { security: [] } : {}),
      ...(endpoint.params ? { params: endpoint.params } : {}),
      ...(endpoint.query ? { querystring: endpoint.query } : {}),
      ...(endpoint.body ? { body: endpoint.body } : {}),
      ...(Object.keys(response).length ? { response } : {}),
    },
    handler: async (request, reply) => {
      const result = await handler(request as unknown as EndpointRequest<E>, reply);
      if (result === reply || reply.sent) return reply;
      if (status === 204 || status === null) return reply.status(status ?? 204).send();
      return reply.status(status).send(result);
    },
  });
}

/**
 * Refuses to start when a route under the API is registered without a contract declaration: every route's
 * scope is declared, enforced and covered by the isolation test.
 */
export function requireDeclaredRoutes(app: FastifyInstance, prefix: string) {
  app.addHook('onRoute', (options) => {
    if (!options.url.startsWith(prefix)) return;
    if (!options.config?.endpoint?.scope?.kind) {
      const methods = [options.method].flat().join(',');
      throw new Error(`${methods} ${options.url} is not declared in the contract with a scope`);
    }
  });
}
