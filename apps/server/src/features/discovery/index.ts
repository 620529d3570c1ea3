export { discoveryRoutes } from './discovery.routes';
export { discoveryCycleJob, requestDiscoveryCycle } from './discovery-cycle.job';
export { projectSearchJob } from './project-search.job';
export { pruneAuthorsJob } from './prune-authors.job';
export { runDiscoveryCycle, type CycleOptions, type CycleReport } from './discovery-cycle.service';
export {
  agentSearchRunning,
  clockTime,
  endAgentSearch,
  getSearchStatus,
  runProjectSearch,
  startProjectSearch,
  type TProjectSearchOptions,
} from './project-search.service';
