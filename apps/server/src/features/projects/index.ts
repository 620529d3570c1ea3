export { projectsRoutes } from './projects.routes';
export { registerProjectScope, requireProject, type ChildResource } from './project-scope';
export { countUserProjects, createProject, getAccessibleProject, ownerHasPlan } from './projects.service';
export type { ProjectWithOwner } from './projects.repository';
export {
  failRunningRun,
  findRun,
  finishRun,
  presentRun,
  startRun,
  updateRunProgress,
  RUN_STALE_AFTER_MS,
  type RunKind,
  type RunRef,
} from './project-runs.repository';
export type { ProjectRunRow } from './project-runs.table';
