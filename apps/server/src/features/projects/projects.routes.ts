import type { FastifyInstance } from 'fastify';
import { projectsEndpoints as e } from '@threadreach/contract';
import { route } from '../../http/endpoints';
import { requireUser } from '../auth';
import { requireProject } from './project-scope';
import {
  createProject,
  deleteProject,
  listProjectsFor,
  presentAccessibleProject,
  updateProject,
} from './projects.service';

export async function projectsRoutes(app: FastifyInstance) {
  const { db } = app.ctx;
  route(app, e.list, async (request) => listProjectsFor(db, requireUser(request), request.query));
  route(app, e.create, async (request) => createProject(db, requireUser(request), request.body));
  route(app, e.get, async (request) =>
    presentAccessibleProject(requireUser(request), requireProject(request)),
  );
  route(app, e.update, async (request) =>
    updateProject(db, requireUser(request), requireProject(request), request.body),
  );
  route(app, e.delete, async (request) => {
    await deleteProject(app.ctx, requireProject(request));
  });
}
