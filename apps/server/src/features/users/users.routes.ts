import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZMeResponse } from '@threadreach/contract';
import { requireUser } from '../../http/auth-guard';
import { getMe } from './users.service';

export const usersRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/me',
    {
      schema: {
        tags: ['users'],
        summary: 'The signed-in user with roles, limit and usage',
        response: { 200: ZMeResponse },
      },
    },
    async (request) => getMe(app.ctx.db, requireUser(request)),
  );
};
