import { accountsEndpoints, redditAuthEndpoints } from './accounts.endpoints';
import { agentEndpoints } from './agent.endpoints';
import { authEndpoints, usersEndpoints } from './auth.endpoints';
import { billingEndpoints } from './billing.endpoints';
import { credentialsEndpoints } from './credentials.endpoints';
import { dmsEndpoints } from './dms.endpoints';
import {
  keywordsEndpoints,
  leadsEndpoints,
  searchEndpoints,
  subredditsEndpoints,
} from './discovery.endpoints';
import type { TEndpoint } from './endpoint';
import { historyEndpoints } from './history.endpoints';
import { productInfoEndpoints, projectsEndpoints } from './projects.endpoints';
import { statisticsEndpoints } from './statistics.endpoints';
import { systemEndpoints } from './system.endpoints';
import { sendingEndpoints } from './sending.endpoints';
import { systemLogsEndpoints } from './system-logs.endpoints';
import { doNotContactEndpoints } from './suppressions.endpoints';

/** Every route of the server, each declared once. */
export const ALL_ENDPOINTS: readonly TEndpoint[] = [
  systemEndpoints,
  authEndpoints,
  usersEndpoints,
  projectsEndpoints,
  productInfoEndpoints,
  credentialsEndpoints,
  billingEndpoints,
  keywordsEndpoints,
  subredditsEndpoints,
  searchEndpoints,
  leadsEndpoints,
  dmsEndpoints,
  systemLogsEndpoints,
  doNotContactEndpoints,
  historyEndpoints,
  statisticsEndpoints,
  redditAuthEndpoints,
  accountsEndpoints,
  sendingEndpoints,
  agentEndpoints,
].flatMap((group) => Object.values(group) as TEndpoint[]);
