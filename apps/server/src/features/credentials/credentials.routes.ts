import type { FastifyInstance } from 'fastify';
import { credentialsEndpoints as e } from '@threadreach/contract';
import { route } from '../../http/endpoints';
import {
  createCredential,
  deleteCredentialById,
  getCredentialDetailed,
  listCredentialsPage,
  replaceCredentialProxy,
  setCredentialEnabled,
  testCredentialConnection,
  updateCredentialById,
} from './credentials.service';

export async function credentialsRoutes(app: FastifyInstance) {
  const { ctx } = app;
  route(app, e.list, async (request) => listCredentialsPage(ctx, request.query));
  route(app, e.create, async (request) => createCredential(ctx, request.body));
  route(app, e.update, async (request) => updateCredentialById(ctx, request.params.id, request.body));
  route(app, e.delete, async (request) => {
    await deleteCredentialById(ctx, request.params.id);
  });
  route(app, e.setEnabled, async (request) =>
    setCredentialEnabled(ctx, request.params.id, request.query.enabled),
  );
  route(app, e.detailed, async (request) => getCredentialDetailed(ctx, request.params.id));
  route(app, e.test, async (request) => testCredentialConnection(ctx, request.params.id));
  route(app, e.replaceProxy, async (request) => replaceCredentialProxy(ctx, request.params.id));
}
