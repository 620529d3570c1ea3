export { WorkspacePage } from './components/workspace-page';
export { WORKFLOW_STEPS } from './steps';
