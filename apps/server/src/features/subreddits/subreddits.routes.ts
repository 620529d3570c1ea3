import type { FastifyInstance } from 'fastify';
import { SUBREDDIT_GENERATION_RUNNING, subredditsEndpoints as e } from '@threadreach/contract';
import { route } from '../../http/endpoints';
import { AppError } from '../../http/errors';
import { requireProject } from '../projects';
import {
  addSubredditsBulk,
  approveSubreddits,
  getGenerationStatus,
  listSubreddits,
  startSubredditGeneration,
} from './subreddits.service';

export async function subredditsRoutes(app: FastifyInstance) {
  const { ctx } = app;
  route(app, e.list, async (request) => listSubreddits(ctx, requireProject(request).id, request.query));
  route(app, e.generate, async (request) => {
    if ((await startSubredditGeneration(ctx, requireProject(request).id)) === 'running') {
      throw new AppError(409, 'subreddit_generation_running', SUBREDDIT_GENERATION_RUNNING);
    }
    return { data: { status: 'started' as const } };
  });
  route(app, e.status, async (request) => getGenerationStatus(ctx, requireProject(request).id));
  route(app, e.addBulk, async (request) => addSubredditsBulk(ctx, requireProject(request).id, request.body));
  route(app, e.approve, async (request) => approveSubreddits(ctx, requireProject(request).id, request.body));
}
