import type { FastifyInstance } from 'fastify';
import { keywordsEndpoints as e } from '@threadreach/contract';
import { route } from '../../http/endpoints';
import { requireProject } from '../projects';
import { approveKeywords, generateKeywords, listKeywords } from './keywords.service';

export async function keywordsRoutes(app: FastifyInstance) {
  const { ctx } = app;
  route(app, e.list, async (request) => listKeywords(ctx, requireProject(request).id, request.query));
  route(app, e.generate, async (request) => generateKeywords(ctx, requireProject(request).id));
  route(app, e.approve, async (request) => approveKeywords(ctx, requireProject(request).id, request.body));
}
