import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  RANK_MODERATOR,
  ZConnectionTestResult,
  ZCreateCredentialRequest,
  ZCredential,
  ZCredentialDetailed,
  ZCredentialList,
  ZCredentialParams,
  ZListCredentialsQuery,
  ZToggleCredentialQuery,
  ZUpdateCredentialRequest,
} from '@threadreach/contract';
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

const tags = ['credentials'];
/** Reddit API credentials are managed by moderators and admins only. */
const config = { minRank: RANK_MODERATOR };

export const credentialsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/reddit-credentials',
    {
      config,
      schema: {
        tags,
        summary: 'Reddit API credentials, filtered by type; disabled ones only with include_disabled',
        querystring: ZListCredentialsQuery,
        response: { 200: ZCredentialList },
      },
    },
    async (request) => listCredentialsPage(app.ctx, request.query),
  );

  app.post(
    '/reddit-credentials',
    {
      config,
      schema: {
        tags,
        summary: 'Add a credential (the client secret is stored encrypted and never returned)',
        body: ZCreateCredentialRequest,
        response: { 201: ZCredential },
      },
    },
    async (request, reply) => reply.status(201).send(await createCredential(app.ctx, request.body)),
  );

  app.put(
    '/reddit-credentials/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Update a credential; without client_secret the current one is kept',
        params: ZCredentialParams,
        body: ZUpdateCredentialRequest,
        response: { 200: ZCredential },
      },
    },
    async (request) => updateCredentialById(app.ctx, request.params.id, request.body),
  );

  app.delete(
    '/reddit-credentials/:id',
    { config, schema: { tags, summary: 'Delete a credential', params: ZCredentialParams } },
    async (request, reply) => {
      await deleteCredentialById(app.ctx, request.params.id);
      return reply.status(204).send();
    },
  );

  app.patch(
    '/reddit-credentials/:id/enable',
    {
      config,
      schema: {
        tags,
        summary: 'Enable or disable a credential',
        params: ZCredentialParams,
        querystring: ZToggleCredentialQuery,
        response: { 200: ZCredential },
      },
    },
    async (request) => setCredentialEnabled(app.ctx, request.params.id, request.query.enabled),
  );

  app.get(
    '/reddit-credentials/:id/detailed',
    {
      config,
      schema: {
        tags,
        summary: 'A credential with its efficiency statistics and proxy health',
        params: ZCredentialParams,
        response: { 200: ZCredentialDetailed },
      },
    },
    async (request) => getCredentialDetailed(app.ctx, request.params.id),
  );

  app.post(
    '/reddit-credentials/:id/test',
    {
      config,
      schema: {
        tags,
        summary: 'A real call to Reddit with the credential, through its proxy',
        params: ZCredentialParams,
        response: { 200: ZConnectionTestResult },
      },
    },
    async (request) => testCredentialConnection(app.ctx, request.params.id),
  );

  app.post(
    '/reddit-credentials/:id/replace-proxy',
    {
      config,
      schema: {
        tags,
        summary: 'Give the credential a new proxy from the provider template',
        params: ZCredentialParams,
        response: { 200: ZCredentialDetailed },
      },
    },
    async (request) => replaceCredentialProxy(app.ctx, request.params.id),
  );
};
