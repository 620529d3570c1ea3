/**
 * The server side of `npm run bench:api`, run in its own process so the load generator does not share
 * its event loop. It seeds a customer and an admin, then serves two things on loopback:
 *
 * - the app, as `npm start` builds it (JWT check, scope check, contract validation and serialization,
 *   request log lines at level info);
 * - a bare Fastify instance whose routes run the same service calls (the same queries) and nothing else.
 *
 * It prints one JSON line (`TBenchServerReady`) when both listen, and stops on SIGTERM.
 */
import Fastify from 'fastify';
import { fillPath, projectsEndpoints, productInfoEndpoints, usersEndpoints } from '@threadreach/contract';
import { credentialsEndpoints } from '@threadreach/contract';
import { createCredential } from '../../apps/server/src/features/credentials';
import { listCredentialsPage } from '../../apps/server/src/features/credentials/credentials.service';
import { getProductInfo } from '../../apps/server/src/features/product-info/product-info.service';
import { findProjectById } from '../../apps/server/src/features/projects/projects.repository';
import {
  getAccessibleProject,
  listProjectsFor,
  presentAccessibleProject,
} from '../../apps/server/src/features/projects/projects.service';
import { getMe } from '../../apps/server/src/features/users/users.service';
import { bufferedStdout } from '../../apps/server/src/logging/buffered-stdout';
import { buildProject, buildUser, validProductInfo } from '../../apps/server/src/test/factories';
import { createTestApp, freePort } from '../../apps/server/src/test/test-app';

/** One request of the mix: the app's path and the bare route's path, with the token to send. */
export interface TMixEntry {
  name: string;
  appPath: string;
  barePath: string;
  authorization: string;
}

export interface TBenchServerReady {
  driver: 'pglite' | 'postgres';
  appUrl: string;
  bareUrl: string;
  mix: TMixEntry[];
  projects: number;
  credentials: number;
}

const PROJECTS = 21;
const CREDENTIALS = 12;
const PAGE = { limit: 20, offset: 0 };

async function main() {
  const t = await createTestApp({
    listen: true,
    env: { JOBS_ENABLED: 'false', ACCESS_TOKEN_TTL_SECONDS: '3600' },
    // Request lines are written as `npm start` writes them (level info, buffered), to nowhere.
    logger: { stream: bufferedStdout('/dev/null'), level: 'info' },
  });
  // The test helper migrates PGlite itself; the PostgreSQL database is fresh here.
  if (t.database.driver === 'postgres') await t.database.migrate();
  const { ctx, config, database } = t;
  const db = database.db;

  const customer = await buildUser(db, config, { profilesLimit: 100 });
  const project = await buildProject(db, config, { owner: customer });
  for (let i = 1; i < PROJECTS; i++) await buildProject(db, config, { owner: customer });
  const admin = await buildUser(db, config, { roles: ['ADMIN'], profilesLimit: 0 });
  for (let i = 0; i < CREDENTIALS; i++) {
    await createCredential(ctx, {
      type: i % 3 === 0 ? 'send' : 'search',
      account_name: `bench_bot_${i}`,
      client_id: `bench-client-${i}-${project.id.slice(0, 8)}`,
      client_secret: `bench-secret-${i}`,
      description: null,
      enabled: true,
      proxy_preferences: { country: 'US', state: null, city: i % 2 ? 'São Paulo' : null },
    });
  }
  const saved = await t.app.inject({
    method: 'PUT',
    url: fillPath(productInfoEndpoints.save.path, { projectId: project.id }),
    headers: customer.auth,
    payload: validProductInfo(),
  });
  if (saved.statusCode !== 200) throw new Error(`Seeding product info answered ${saved.statusCode}`);

  const customerAuth = { id: customer.id, email: customer.email, roles: customer.roles, profilesLimit: 100 };
  const bare = Fastify({ logger: false });
  bare.get('/bare/projects', async () => listProjectsFor(db, customerAuth, PAGE));
  bare.get<{ Params: { id: string } }>('/bare/projects/:id', async (request) => {
    const row = await findProjectById(db, request.params.id);
    return row && presentAccessibleProject(customerAuth, row);
  });
  // The app checks the caller may reach the project (one query) before reading its product info.
  bare.get<{ Params: { id: string } }>('/bare/projects/:id/product-info', async (request) => {
    const owned = await getAccessibleProject(db, customerAuth, request.params.id, 'read');
    return getProductInfo(ctx, owned.id);
  });
  bare.get('/bare/me', async () => getMe(db, customerAuth));
  bare.get('/bare/credentials', async () => listCredentialsPage(ctx, { include_disabled: false, ...PAGE }));
  const barePort = await freePort();
  await bare.listen({ host: '127.0.0.1', port: barePort });

  const asCustomer = customer.auth.authorization;
  const asAdmin = admin.auth.authorization;
  const projectPath = fillPath(projectsEndpoints.get.path, { projectId: project.id });
  const infoPath = fillPath(productInfoEndpoints.get.path, { projectId: project.id });
  const entries = {
    projects: {
      name: 'list projects (20 of 21)',
      appPath: `${projectsEndpoints.list.path}?limit=20`,
      barePath: '/bare/projects',
      authorization: asCustomer,
    },
    info: {
      name: 'product info',
      appPath: infoPath,
      barePath: `/bare/projects/${project.id}/product-info`,
      authorization: asCustomer,
    },
    project: {
      name: 'get project',
      appPath: projectPath,
      barePath: `/bare/projects/${project.id}`,
      authorization: asCustomer,
    },
    me: { name: 'me', appPath: usersEndpoints.me.path, barePath: '/bare/me', authorization: asCustomer },
    credentials: {
      name: 'credentials (admin)',
      appPath: `${credentialsEndpoints.list.path}?limit=20`,
      barePath: '/bare/credentials',
      authorization: asAdmin,
    },
  } satisfies Record<string, TMixEntry>;
  // Ten requests a cycle: what a workspace page load and an admin glance ask for.
  const { projects, info, project: get, me, credentials } = entries;
  const mix = [projects, info, get, projects, info, me, projects, info, get, credentials];

  const ready: TBenchServerReady = {
    driver: database.driver,
    appUrl: t.url,
    bareUrl: `http://127.0.0.1:${barePort}`,
    mix,
    projects: PROJECTS,
    credentials: CREDENTIALS,
  };
  process.stdout.write(`${JSON.stringify(ready)}\n`);

  const stop = async () => {
    await bare.close();
    await t.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
