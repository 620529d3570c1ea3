import { existsSync } from 'node:fs';
import path from 'node:path';
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
import { authRoutes } from './features/auth/auth.routes';
import { billingRoutes, localCheckoutRoutes } from './features/billing/billing.routes';
import { createSsoClient, type SsoClient } from './features/auth/sso.client';
import { devIdentityProvider } from './features/dev-idp/dev-idp.plugin';
import { credentialsRoutes } from './features/credentials/credentials.routes';
import { productInfoRoutes } from './features/product-info/product-info.routes';
import { proxyPoolRoutes } from './features/proxy-pool/proxy-pool.routes';
import { projectsRoutes } from './features/projects/projects.routes';
import { systemRoutes } from './features/system/system.routes';
import { usersRoutes } from './features/users/users.routes';
import { registerAuthGuard } from './http/auth-guard';
import { registerErrorHandling } from './http/errors';
import { registerProjectScope } from './http/project-scope';
import { createPaymentsProvider } from './integrations/payments/create-payments-provider';
import { isLocalProvider } from './integrations/payments/local.provider';
import type { PaymentsProvider } from './integrations/payments/payments.provider';

export const API_PREFIX = '/api/v1';

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
    bodyLimit: 1024 * 1024,
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

  const sso = options.sso ?? createSsoClient(config);
  const payments = options.payments ?? createPaymentsProvider(config, database.db);
  await app.register(
    async (api) => {
      registerAuthGuard(api, config);
      registerProjectScope(api);
      await api.register(systemRoutes);
      await api.register(authRoutes(sso));
      await api.register(usersRoutes);
      await api.register(projectsRoutes);
      await api.register(productInfoRoutes);
      await api.register(credentialsRoutes);
      await api.register(proxyPoolRoutes);
      await api.register(billingRoutes(payments));
    },
    { prefix: API_PREFIX },
  );

  if (config.sso.kind === 'dev') await app.register(devIdentityProvider(config, sso.redirectUri));
  if (isLocalProvider(payments)) await app.register(localCheckoutRoutes(payments));

  registerWebApp(app, config.webDistDir);
  return app;
}

/** The built web app on the same origin; unknown non-API paths fall back to index.html for the router. */
function registerWebApp(app: FastifyInstance, distDir: string) {
  const hasWebApp = existsSync(path.join(distDir, 'index.html'));
  if (hasWebApp) {
    void app.register(fastifyStatic, { root: distDir, wildcard: false, index: false, maxAge: '1h' });
  }
  app.setNotFoundHandler((request, reply) => {
    const isApi = request.url.startsWith('/api/');
    if (!isApi && hasWebApp && (request.method === 'GET' || request.method === 'HEAD')) {
      return reply.header('Cache-Control', 'no-cache').sendFile('index.html', distDir);
    }
    return reply
      .status(404)
      .send({ detail: `Route ${request.method} ${request.url.split('?')[0]} not found`, code: 'not_found' });
  });
}
