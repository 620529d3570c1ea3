export { projectsRoutes } from './projects.routes';
export { registerProjectScope, requireProject, type ChildResource } from './project-scope';
export { countUserProjects, createProject, getAccessibleProject } from './projects.service';
export type { ProjectWithOwner } from './projects.repository';
