import type { FastifyInstance } from 'fastify';
import { accountsEndpoints as e, redditAuthEndpoints as auth } from '@threadreach/contract';
import { route } from '../../http/endpoints';
import { requireUser } from '../auth';
import { requireProject } from '../projects';
import { queuePullForward } from '../sending';
import { completeRedditLogin, startRedditLogin } from './account-auth.service';
import {
  getAccountSettings,
  listAccountsPage,
  listAuthStatusPage,
  removeAccount,
  requireAccount,
  updateAccountSettings,
} from './accounts.service';

export async function accountsRoutes(app: FastifyInstance) {
  const { ctx } = app;

  route(app, auth.login, async (request) =>
    startRedditLogin(ctx, requireUser(request), requireProject(request)),
  );
  // An account connected, or settings changed, may give the project's queued DMs room sooner.
  route(app, auth.callback, async (request, reply) => {
    const { location, connected } = await completeRedditLogin(ctx, request.query);
    if (connected) await queuePullForward(ctx, connected.projectId);
    return reply.redirect(location);
  });

  route(app, e.list, async (request) =>
    listAccountsPage(ctx, requireUser(request), requireProject(request), request.query),
  );
  route(app, e.authStatus, async (request) =>
    listAuthStatusPage(ctx, requireProject(request).id, request.query),
  );
  route(app, e.remove, async (request) => {
    await removeAccount(ctx, requireProject(request).id, request.params.accountId);
  });
  route(app, e.reauthenticate, async (request) => {
    const project = requireProject(request);
    const account = await requireAccount(ctx, project.id, request.params.accountId);
    return startRedditLogin(ctx, requireUser(request), project, account);
  });
  route(app, e.getSettings, async (request) =>
    getAccountSettings(ctx, requireProject(request).id, request.params.accountId),
  );
  route(app, e.updateSettings, async (request) => {
    const projectId = requireProject(request).id;
    const settings = await updateAccountSettings(ctx, projectId, request.params.accountId, request.body);
    await queuePullForward(ctx, projectId);
    return settings;
  });
}
