export * from './reddit.client';
export * from './reddit.api';
export {
  redditUserAgent,
  redditWebUrl,
  RedditTransport,
  type RedditCallMode,
  type RedditClientDeps,
  type RedditCredentialAccess,
  type RedditEndpoints,
  type TokenGrant,
} from './reddit.transport';
export * from './reddit.errors';
export { RequestBudget } from './rate-budget';
export { systemClock, type Clock } from './clock';
export { requestTotals, deleteRequestStats, type RequestTotals } from './request-stats';
export { TokenStore, activeTokenCounts, deleteTokens } from './token-store';
