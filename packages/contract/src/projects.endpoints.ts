import { endpoint, scope } from './endpoint';
import {
  ZProductInfo,
  ZSaveProductInfoRequest,
  ZUpdateProductInfoRequest,
  ZSaveProductInfoResponse,
} from './product-info.schema';
import {
  ZCreateProjectRequest,
  ZListProjectsQuery,
  ZProject,
  ZProjectList,
  ZProjectParams,
  ZUpdateProjectRequest,
} from './projects.schema';

const tags = ['projects'];

export const projectsEndpoints = {
  list: endpoint({
    method: 'GET',
    path: '/api/v1/projects',
    summary: "The caller's projects (admins: every project, with owner_email)",
    tags,
    scope: scope.user('read'),
    query: ZListProjectsQuery,
    responses: { 200: ZProjectList },
  }),
  create: endpoint({
    method: 'POST',
    path: '/api/v1/projects',
    summary: 'Create a project',
    tags,
    scope: scope.user('write'),
    body: ZCreateProjectRequest,
    responses: { 201: ZProject },
  }),
  get: endpoint({
    method: 'GET',
    path: '/api/v1/projects/:projectId',
    summary: 'One project',
    tags,
    scope: scope.project('read'),
    params: ZProjectParams,
    responses: { 200: ZProject },
  }),
  update: endpoint({
    method: 'PUT',
    path: '/api/v1/projects/:projectId',
    summary: 'Update a project (name, description, without_keywords)',
    tags,
    scope: scope.project('write'),
    params: ZProjectParams,
    body: ZUpdateProjectRequest,
    responses: { 200: ZProject },
  }),
  delete: endpoint({
    method: 'DELETE',
    path: '/api/v1/projects/:projectId',
    summary: 'Delete a project and everything in it',
    tags,
    scope: scope.project('write'),
    params: ZProjectParams,
    responses: { 204: null },
  }),
};

const productInfoTags = ['product-info'];

export const productInfoEndpoints = {
  get: endpoint({
    method: 'GET',
    path: '/api/v1/projects/:projectId/product-info',
    summary: 'Step 1: product information',
    tags: productInfoTags,
    scope: scope.project('read'),
    params: ZProjectParams,
    responses: { 200: ZProductInfo },
  }),
  saveAndRegenerate: endpoint({
    method: 'POST',
    path: '/api/v1/projects/:projectId/product-info',
    summary: 'Save step 1; regenerate_keywords (default true) moves the user on to keywords',
    tags: productInfoTags,
    scope: scope.project('write'),
    params: ZProjectParams,
    body: ZSaveProductInfoRequest,
    responses: { 200: ZSaveProductInfoResponse },
  }),
  save: endpoint({
    method: 'PUT',
    path: '/api/v1/projects/:projectId/product-info',
    summary: 'Save step 1 without regenerating keywords',
    tags: productInfoTags,
    scope: scope.project('write'),
    params: ZProjectParams,
    body: ZUpdateProductInfoRequest,
    responses: { 200: ZSaveProductInfoResponse },
  }),
};
