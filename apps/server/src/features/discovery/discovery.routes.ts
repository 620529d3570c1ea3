import type { FastifyInstance } from 'fastify';
import { ENHANCED_SEARCH_LIMIT, searchEndpoints as e } from '@threadreach/contract';
import { route } from '../../http/endpoints';
import { requireProject } from '../projects';
import { queueProjectSearch } from './project-search.job';
import { getSearchStatus, startProjectSearch, type TProjectSearchOptions } from './project-search.service';

const STARTED = { data: { status: 'started' as const } };

export async function discoveryRoutes(app: FastifyInstance) {
  const { ctx } = app;
  const start = async (project: { id: string; withoutKeywords: boolean }, options: TProjectSearchOptions) => {
    const run = await startProjectSearch(ctx, project, options);
    await queueProjectSearch(ctx, run);
    return STARTED;
  };

  route(app, e.enhanced, async (request) =>
    start(requireProject(request), { trigger: 'enhanced', ...request.body }),
  );
  route(app, e.enhancedStatus, async (request) => getSearchStatus(ctx, requireProject(request).id));
  route(app, e.posts, async (request) =>
    start(requireProject(request), {
      trigger: 'posts',
      include_posts: true,
      include_comments: false,
      include_profiles: false,
      persist_posts: true,
      limit: ENHANCED_SEARCH_LIMIT,
    }),
  );
  route(app, e.postsStatus, async (request) => getSearchStatus(ctx, requireProject(request).id));
}
