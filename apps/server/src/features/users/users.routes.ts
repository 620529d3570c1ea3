import type { FastifyInstance } from 'fastify';
import { usersEndpoints as e } from '@threadreach/contract';
import { route } from '../../http/endpoints';
import { requireUser } from '../auth';
import { getMe } from './users.service';

export async function usersRoutes(app: FastifyInstance) {
  route(app, e.me, async (request) => getMe(app.ctx.db, requireUser(request)));
}
