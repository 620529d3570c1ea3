export { authRoutes, REFRESH_COOKIE } from './auth.routes';
export { registerAuthGuard, requireUser, bearerToken, SUBSCRIPTION_REQUIRED_DETAIL } from './auth.guard';
export { createSsoClient, type SsoClient } from './sso.client';
export { issueV3Link, requiresSubscription } from './auth.service';
export { signAccessToken, V3_TTL_SECONDS, type AuthUser } from './tokens';
export { cleanupAuthTokensJob } from './cleanup-auth-tokens.job';
