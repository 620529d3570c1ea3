import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZProductInfo,
  ZProductInfoFields,
  ZProjectParams,
  ZSaveProductInfoRequest,
  ZSaveProductInfoResponse,
} from '@threadreach/contract';
import { requireProject } from '../../http/project-scope';
import { getProductInfo, saveProductInfo } from './product-info.service';

const tags = ['product-info'];

export const productInfoRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/projects/:projectId/product-info',
    {
      schema: {
        tags,
        summary: 'Step 1: product information',
        params: ZProjectParams,
        response: { 200: ZProductInfo },
      },
    },
    async (request) => getProductInfo(app.ctx.db, requireProject(request).id),
  );

  app.post(
    '/projects/:projectId/product-info',
    {
      schema: {
        tags,
        summary: 'Save step 1; regenerate_keywords (default true) moves the user on to keywords',
        params: ZProjectParams,
        body: ZSaveProductInfoRequest,
        response: { 200: ZSaveProductInfoResponse },
      },
    },
    async (request) => {
      const { regenerate_keywords, ...fields } = request.body;
      return saveProductInfo(app.ctx.db, requireProject(request).id, fields, regenerate_keywords);
    },
  );

  app.put(
    '/projects/:projectId/product-info',
    {
      schema: {
        tags,
        summary: 'Save step 1 without regenerating keywords',
        params: ZProjectParams,
        body: ZProductInfoFields,
        response: { 200: ZSaveProductInfoResponse },
      },
    },
    async (request) => saveProductInfo(app.ctx.db, requireProject(request).id, request.body, false),
  );
};
