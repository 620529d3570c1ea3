import type { FastifyInstance } from 'fastify';
import { productInfoEndpoints as e } from '@threadreach/contract';
import { route } from '../../http/endpoints';
import { requireProject } from '../projects';
import { getProductInfo, saveProductInfo } from './product-info.service';

export async function productInfoRoutes(app: FastifyInstance) {
  const { ctx } = app;
  route(app, e.get, async (request) => getProductInfo(ctx, requireProject(request).id));
  route(app, e.saveAndRegenerate, async (request) => {
    const { regenerate_keywords, updated_at, ...fields } = request.body;
    return saveProductInfo(ctx, requireProject(request).id, fields, regenerate_keywords, updated_at);
  });
  route(app, e.save, async (request) => {
    const { updated_at, ...fields } = request.body;
    return saveProductInfo(ctx, requireProject(request).id, fields, false, updated_at);
  });
}
