export { agentRoutes } from './agent.routes';
export { agentRunJob, agentSweepJob } from './agent-run.job';
export { pauseAgentsWithoutPlan } from './agent-run';
