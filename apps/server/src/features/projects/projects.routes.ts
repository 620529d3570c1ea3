import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZCreateProjectRequest,
  ZListProjectsQuery,
  ZProject,
  ZProjectList,
  ZProjectParams,
  ZUpdateProjectRequest,
} from '@threadreach/contract';
import { requireUser } from '../../http/auth-guard';
import { requireProject } from '../../http/project-scope';
import {
  createProject,
  deleteProject,
  listProjectsFor,
  presentAccessibleProject,
  updateProject,
} from './projects.service';

const tags = ['projects'];

export const projectsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/projects',
    {
      schema: {
        tags,
        summary: "The caller's projects (admins: every project, with owner_email)",
        querystring: ZListProjectsQuery,
        response: { 200: ZProjectList },
      },
    },
    async (request) => listProjectsFor(app.ctx.db, requireUser(request), request.query),
  );

  app.post(
    '/projects',
    {
      schema: { tags, summary: 'Create a project', body: ZCreateProjectRequest, response: { 201: ZProject } },
    },
    async (request, reply) => {
      const project = await createProject(app.ctx.db, requireUser(request), request.body);
      return reply.status(201).send(project);
    },
  );

  app.get(
    '/projects/:projectId',
    { schema: { tags, summary: 'One project', params: ZProjectParams, response: { 200: ZProject } } },
    async (request) => presentAccessibleProject(requireUser(request), requireProject(request)),
  );

  app.put(
    '/projects/:projectId',
    {
      schema: {
        tags,
        summary: 'Update a project (name, description, without_keywords)',
        params: ZProjectParams,
        body: ZUpdateProjectRequest,
        response: { 200: ZProject },
      },
    },
    async (request) => updateProject(app.ctx.db, requireUser(request), requireProject(request), request.body),
  );

  app.delete(
    '/projects/:projectId',
    { schema: { tags, summary: 'Delete a project and everything in it', params: ZProjectParams } },
    async (request, reply) => {
      await deleteProject(app.ctx.db, requireProject(request));
      return reply.status(204).send();
    },
  );
};
