import type { FastifyInstance } from 'fastify';
import { sendingEndpoints as e } from '@threadreach/contract';
import { route } from '../../http/endpoints';
import { requireUser } from '../auth';
import { requireProject } from '../projects';
import { cancelQueuedDms, getSendingStatus, sendAllDms, sendDmNow } from './sending.service';

export async function sendingRoutes(app: FastifyInstance) {
  const { ctx } = app;
  route(app, e.sendOne, async (request) =>
    sendDmNow(ctx, requireProject(request).id, { dmId: request.body.dm_id, postId: request.body.post_id }),
  );
  route(app, e.sendBulk, async (request) => sendAllDms(ctx, requireProject(request).id));
  route(app, e.cancelQueued, async (request) => cancelQueuedDms(ctx, requireProject(request).id));
  route(app, e.status, async (request) => {
    const { project_id: _named, ...query } = request.query;
    // Without a project the status covers the caller's own projects only.
    const scope = request.project ? { projectId: request.project.id } : { userId: requireUser(request).id };
    return getSendingStatus(ctx, scope, query);
  });
}
