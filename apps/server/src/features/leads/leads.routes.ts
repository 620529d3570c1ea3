import type { FastifyInstance } from 'fastify';
import { leadsEndpoints as e } from '@threadreach/contract';
import { sendCsv } from '../../http/csv';
import { route } from '../../http/endpoints';
import { requireProject } from '../projects';
import {
  dismissLeadOf,
  dismissListedLeadsOf,
  dismissListedProfilesOf,
  dismissProfileOf,
  leadsCsv,
  leadsCsvFilename,
  listCommentsPage,
  listPostsPage,
  listProfilesPage,
} from './leads.service';
import { getWebhook, testWebhook, updateWebhook } from './webhooks.service';

export async function leadsRoutes(app: FastifyInstance) {
  const { ctx } = app;
  route(app, e.posts, async (request) => listPostsPage(ctx, requireProject(request).id, request.query));
  route(app, e.deletePost, async (request) => {
    await dismissLeadOf(ctx, requireProject(request).id, 'post', request.params.postId);
  });
  route(app, e.deleteAllPosts, async (request) =>
    dismissListedLeadsOf(ctx, requireProject(request).id, 'post', request.query.min_score),
  );
  route(app, e.comments, async (request) => listCommentsPage(ctx, requireProject(request).id, request.query));
  route(app, e.deleteComment, async (request) => {
    await dismissLeadOf(ctx, requireProject(request).id, 'comment', request.params.commentId);
  });
  route(app, e.deleteAllComments, async (request) =>
    dismissListedLeadsOf(ctx, requireProject(request).id, 'comment', request.query.min_score),
  );
  route(app, e.profiles, async (request) => listProfilesPage(ctx, requireProject(request).id, request.query));
  route(app, e.deleteProfile, async (request) => {
    await dismissProfileOf(ctx, requireProject(request).id, request.params.profileId);
  });
  route(app, e.deleteAllProfiles, async (request) =>
    dismissListedProfilesOf(ctx, requireProject(request).id, request.query.min_score),
  );
  route(app, e.exportCsv, async (request, reply) => {
    const project = requireProject(request);
    return sendCsv(reply, leadsCsvFilename(ctx, project), leadsCsv(ctx, project.id));
  });
  route(app, e.getWebhook, async (request) => getWebhook(ctx, requireProject(request).id));
  route(app, e.updateWebhook, async (request) =>
    updateWebhook(ctx, requireProject(request).id, request.body),
  );
  route(app, e.testWebhook, async (request) => testWebhook(ctx, requireProject(request).id));
}
