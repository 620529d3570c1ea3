import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyCompress from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { AppContext } from './context';
import { accountChildResources, accountsRoutes } from './features/accounts';
import { agentRoutes } from './features/agent';
import { authRoutes, createSsoClient, registerAuthGuard, type SsoClient } from './features/auth';
import { billingRoutes, localCheckoutRoutes } from './features/billing';
import { credentialsRoutes, proxyPoolRoutes } from './features/credentials';
import { devIdentityProvider } from './features/dev-idp';
import { dmChildResource, dmsRoutes } from './features/dms';
import { historyRoutes } from './features/history';
import { leadChildResources, leadsRoutes } from './features/leads';
import { keywordsRoutes } from './features/keywords';
import { discoveryRoutes } from './features/discovery';
import { productInfoRoutes } from './features/product-info';
import { projectsRoutes, registerProjectScope, type ChildResource } from './features/projects';
import { statisticsRoutes } from './features/statistics';
import { sendingRoutes } from './features/sending';
import { subredditsRoutes } from './features/subreddits';
import { suppressionsRoutes } from './features/suppressions';
import { systemRoutes } from './features/system';
import { systemLogsRoutes } from './features/system-logs';
import { usersRoutes } from './features/users';
import { AccessLogController } from './http/access-log';
import { lazyRequestLogger } from './http/request-logger';
import { requireDeclaredRoutes } from './http/endpoints';
import { clientErrorHandler, frameworkErrors, registerErrorHandling } from './http/errors';
import { registerJsonBody } from './http/json-body';
import { apiMethodsByPath } from './http/method-not-allowed';
import { registerSecurity } from './http/security';
import { createPaymentsProvider } from './integrations/payments/create-payments-provider';
import { isLocalProvider } from './integrations/payments/local.provider';
import type { PaymentsProvider } from './integrations/payments/payments.provider';

export const API_PREFIX = '/api/v1';

/** Resources inside projects that `child` scopes name, with the loader of each one's owning project. */
const CHILD_RESOURCES: readonly ChildResource[] = [
  ...leadChildResources,
  dmChildResource,
  ...accountChildResources,
];

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route as registered, so tests can walk the whole API. */
    routeTable: RouteOptions[];
  }
}

export interface BuildAppOptions {
  /** The complete context (`createAppContext`); the app adds routes around it, never builds it. */
  ctx: AppContext;
  sso?: SsoClient;
  /** The payment provider; by default Stripe or the local checkout, as configured. */
  payments?: PaymentsProvider;
}

export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { ctx } = options;
  const { config, database } = ctx;
  const app = Fastify({
    loggerInstance: ctx.log,
    logController: new AccessLogController(ctx.log),
    childLoggerFactory: lazyRequestLogger,
    bodyLimit: 1024 * 1024,
    frameworkErrors,
    clientErrorHandler,
    trustProxy: config.env === 'production',
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.decorate('ctx', ctx);
  app.decorate('routeTable', [] as RouteOptions[]);
  app.addHook('onRoute', (route) => {
    app.routeTable.push(route);
  });

  await app.register(fastifyCookie);
  registerJsonBody(app);
  // API answers of 1 KiB or more go gzipped to clients that take it: a page of leads or DMs shrinks 5 to 20
  // times over a customer's connection. Level 1 compresses JSON almost as well as brotli in a third of the
  // time (bench/api measures what it costs). The web app's files come precompressed from the build and are
  // left as they are.
  await app.register(fastifyCompress, {
    threshold: 1024,
    encodings: ['gzip'],
    zlibOptions: { level: 1 },
    globalDecompression: false,
  });
  // Security headers and per-address limits: before every route, so each one gets them.
  await registerSecurity(app, config);
  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'Threadreach API',
        version: '1.0.0',
        description: 'Every request and response is described by the zod schemas of packages/contract.',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });
  registerErrorHandling(app);
  requireDeclaredRoutes(app, API_PREFIX);
  registerAuthGuard(app, config, ctx.clock);
  registerProjectScope(app, ctx.db, CHILD_RESOURCES);

  const sso = options.sso ?? createSsoClient(config);
  const payments = options.payments ?? createPaymentsProvider(config, database.db);
  for (const routes of [
    systemRoutes,
    authRoutes(sso),
    usersRoutes,
    projectsRoutes,
    productInfoRoutes,
    credentialsRoutes,
    proxyPoolRoutes,
    billingRoutes(payments),
    leadsRoutes,
    dmsRoutes,
    keywordsRoutes,
    subredditsRoutes,
    systemLogsRoutes,
    statisticsRoutes,
    discoveryRoutes,
    suppressionsRoutes,
    historyRoutes,
    accountsRoutes,
    sendingRoutes,
    agentRoutes,
  ]) {
    await app.register(routes);
  }

  if (config.sso.kind === 'dev') await app.register(devIdentityProvider(config, sso.redirectUri));
  if (isLocalProvider(payments)) await app.register(localCheckoutRoutes(payments));

  registerWebApp(app, config.webDistDir);
  return app;
}

/**
 * A path the web app answers with its page (index.html, for the router): any non-API path that does not
 * name a file, and /index.html itself, which is never served as a file so that it is never cached for good.
 * A file is the build's own (`/assets/…`) or a path with an extension; one that is not there is a 404, not
 * the app's page: a tab opened before a deploy that asks for a chunk the deploy removed gets an error it
 * can act on (the web app reloads), not HTML in place of a script.
 */
function isAppPage(pathname: string): boolean {
  if (pathname === '/index.html') return true;
  return !pathname.startsWith('/api/') && !/^\/assets\/|\.[^/]*$/.test(pathname);
}

/**
 * The built web app on the same origin; unknown non-API paths fall back to index.html for the router.
 * Built files carry a hash of their content in their names, so browsers keep them for good; index.html,
 * which names them, is checked on every load. The build leaves brotli and gzip copies beside them, sent to
 * browsers that take them.
 */
function registerWebApp(app: FastifyInstance, distDir: string) {
  const hasWebApp = existsSync(path.join(distDir, 'index.html'));
  if (hasWebApp) {
    void app.register(fastifyStatic, {
      root: distDir,
      // Files are looked up when asked for, not listed at start: a build made while the server runs is served.
      wildcard: true,
      index: false,
      preCompressed: true,
      maxAge: '365d',
      immutable: true,
      allowedPath: (pathName) => !isAppPage(pathName),
    });
  }
  const methodsAt = apiMethodsByPath(app.routeTable);
  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0]!;
    if (isAppPage(pathname) && hasWebApp && (request.method === 'GET' || request.method === 'HEAD')) {
      return reply
        .header('Cache-Control', 'no-cache')
        .sendFile('index.html', distDir, { cacheControl: false });
    }
    const allowed = pathname.startsWith('/api/') ? methodsAt(pathname) : [];
    if (allowed.length > 0) {
      return reply
        .status(405)
        .header('Allow', allowed.join(', '))
        .send({
          detail: `${pathname} does not take ${request.method}; it takes ${allowed.join(', ')}`,
          code: 'method_not_allowed',
        });
    }
    return reply
      .status(404)
      .send({ detail: `Route ${request.method} ${pathname} not found`, code: 'not_found' });
  });
}
