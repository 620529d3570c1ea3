export { ProjectSelector } from './components/project-selector';
export { LazyCreateProjectModal as CreateProjectModal } from './components/lazy-create-project-modal';
export { NoProjectPrompt } from './components/no-project-prompt';
export { NewProjectButton } from './components/new-project-button';
export { ProjectSettingsButton } from './components/project-settings-button';
export { YourProjectsCard } from './components/your-projects-card';
export {
  useProjects,
  useCreateProject,
  useSelectedProject,
  pickProject,
  projectKeys,
} from './hooks/use-projects';
export {
  createProjectBlockReason,
  createProjectErrorMessage,
  CREATE_PROJECT_MESSAGES,
} from './create-project-errors';
