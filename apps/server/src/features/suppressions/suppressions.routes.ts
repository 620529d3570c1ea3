import type { FastifyInstance } from 'fastify';
import { doNotContactEndpoints as e } from '@threadreach/contract';
import { route } from '../../http/endpoints';
import { requireUser } from '../auth';
import {
  addDoNotContact,
  importDoNotContact,
  listDoNotContact,
  removeDoNotContact,
} from './suppressions.service';

/** The caller's own workspace's list: the signed-in user is the workspace. */
export async function suppressionsRoutes(app: FastifyInstance) {
  const { ctx } = app;
  route(app, e.list, async (request) => listDoNotContact(ctx, requireUser(request).id, request.query));
  route(app, e.add, async (request) => addDoNotContact(ctx, requireUser(request).id, request.body));
  route(app, e.import, async (request) => importDoNotContact(ctx, requireUser(request).id, request.body));
  route(app, e.remove, async (request) => {
    await removeDoNotContact(ctx, requireUser(request).id, request.params.username);
  });
}
