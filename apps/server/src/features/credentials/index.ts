export { credentialsRoutes } from './credentials.routes';
export { proxyPoolRoutes } from './proxy-pool.routes';
export { checkProxiesJob } from './check-proxies.job';
export { seedDemoCredentials } from './credentials.seed';
export {
  createCredential,
  readClientSecret,
  redditClientFor,
  redditClientsOfType,
  searchRedditClient,
} from './credentials.service';
