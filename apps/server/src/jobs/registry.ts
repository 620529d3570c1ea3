import { cleanupAuthTokensJob } from '../features/auth/cleanup-auth-tokens.job';
import { expireSubscriptionsJob } from '../features/billing/expire-subscriptions.job';
import { checkProxiesJob } from '../features/credentials/check-proxies.job';
import type { JobDefinition } from './job';

/** Every job the workers run. A `*.job.ts` whose job is missing here fails `registry.test.ts`. */
export const JOBS: readonly JobDefinition[] = [cleanupAuthTokensJob, expireSubscriptionsJob, checkProxiesJob];
