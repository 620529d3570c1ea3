import type { FastifyInstance } from 'fastify';
import { DM_GENERATION_RUNNING, dmsEndpoints as e } from '@threadreach/contract';
import { route } from '../../http/endpoints';
import { AppError } from '../../http/errors';
import { requireProject } from '../projects';
import {
  deleteDmOf,
  generateForComment,
  generateForPosts,
  generateForProfile,
  listDms,
  regenerateDmOf,
  saveDmTexts,
  startGenerateAllDms,
} from './dms.service';
import { getDmGenerationStatus } from './generate-all-dms';

export async function dmsRoutes(app: FastifyInstance) {
  const { ctx } = app;
  route(app, e.list, async (request) => listDms(ctx, requireProject(request).id, request.query));
  route(app, e.delete, async (request) => {
    await deleteDmOf(ctx, requireProject(request).id, request.params.dmId);
  });
  route(app, e.regenerate, async (request) =>
    regenerateDmOf(ctx, requireProject(request).id, request.params.dmId),
  );
  route(app, e.update, async (request) =>
    saveDmTexts(ctx, requireProject(request).id, request.body.messages),
  );
  route(app, e.approve, async (request) => saveDmTexts(ctx, requireProject(request).id, request.body.items));
  route(app, e.generateForSelected, async (request) =>
    generateForPosts(ctx, requireProject(request).id, request.body.post_ids),
  );
  route(app, e.generateFromComment, async (request) =>
    generateForComment(ctx, requireProject(request).id, request.body.id),
  );
  route(app, e.generateFromProfile, async (request) =>
    generateForProfile(ctx, requireProject(request).id, request.body.id),
  );
  route(app, e.generateAll, async (request) => {
    const started = await startGenerateAllDms(ctx, requireProject(request).id, request.body.min_score);
    if (started === 'running') throw new AppError(409, 'dm_generation_running', DM_GENERATION_RUNNING);
    return { data: { status: 'started' as const } };
  });
  route(app, e.generateAllStatus, async (request) => getDmGenerationStatus(ctx, requireProject(request).id));
}
