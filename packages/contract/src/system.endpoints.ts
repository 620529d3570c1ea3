import { endpoint, scope } from './endpoint';
import { ZHealthResponse, ZPublicConfig } from './system.schema';

const tags = ['system'];

export const systemEndpoints = {
  health: endpoint({
    method: 'GET',
    path: '/api/v1/health',
    summary: 'Database and job queue state',
    tags,
    scope: scope.public(),
    responses: { 200: ZHealthResponse, 503: ZHealthResponse },
  }),
  publicConfig: endpoint({
    method: 'GET',
    path: '/api/v1/public-config',
    summary: 'What the web app needs before sign-in',
    tags,
    scope: scope.public(),
    responses: { 200: ZPublicConfig },
  }),
};
