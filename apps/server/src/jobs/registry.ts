import { checkAccountAuthJob } from '../features/accounts';
import { agentRunJob, agentSweepJob } from '../features/agent';
import { cleanupAuthTokensJob } from '../features/auth';
import { expireSubscriptionsJob } from '../features/billing';
import { checkProxiesJob } from '../features/credentials';
import { expireDmsJob, generateDmsJob } from '../features/dms';
import { deliverLeadWebhookJob, pruneLeadsJob, scanLeadWebhooksJob } from '../features/leads';
import { pollInboxJob, scheduleInboxPollsJob } from '../features/replies';
import { generateSubredditsJob } from '../features/subreddits';
import { pruneSystemLogsJob } from '../features/system-logs';
import { discoveryCycleJob, projectSearchJob, pruneAuthorsJob } from '../features/discovery';
import { pullQueueForwardJob, reconcileDmsJob, sendDmJob } from '../features/sending';
import type { JobDefinition } from './job';

/** Every job the workers run. A `*.job.ts` whose job is missing here fails `registry.test.ts`. */
export const JOBS: readonly JobDefinition[] = [
  cleanupAuthTokensJob,
  expireSubscriptionsJob,
  checkProxiesJob,
  scanLeadWebhooksJob,
  deliverLeadWebhookJob,
  pruneLeadsJob,
  generateSubredditsJob,
  pruneSystemLogsJob,
  discoveryCycleJob,
  projectSearchJob,
  pruneAuthorsJob,
  generateDmsJob,
  expireDmsJob,
  pollInboxJob,
  scheduleInboxPollsJob,
  checkAccountAuthJob,
  sendDmJob,
  reconcileDmsJob,
  pullQueueForwardJob,
  agentRunJob,
  agentSweepJob,
];
