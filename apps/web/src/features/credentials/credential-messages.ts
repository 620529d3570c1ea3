import { ApiError, errorMessage } from '../../lib/api-error';

/** Texts of spec section 8, "Admin pages", for the credentials page. */
export const CREDENTIAL_MESSAGES = {
  fetchFailed: 'Failed to fetch credentials',
  toggleFailed: 'Failed to toggle credential',
  createFailed: 'Failed to create credential',
  updateFailed: 'Failed to update credential',
  deleteFailed: 'Failed to delete credential',
  detailsFailed: 'Failed to load credential details',
  notFound: 'Credential not found',
  testFailed: 'Test failed',
  replaceProxyFailed: 'Failed to replace proxy',
  proxyPoolFailed: 'Failed to fetch proxy pool',
} as const;

export const DELETE_CONFIRM_TEXT = 'Are you sure you want to delete this credential?';

/** Before disabling the only enabled search credential: every customer's search stops with it. */
export const LAST_SEARCH_CREDENTIAL_QUESTION =
  "It is the only enabled search credential: every customer's search stops until one is enabled. Disable it?";

/**
 * Beside the question, for a send credential that connected accounts sign in through: the server refuses
 * to delete it while they do (the list's count may be out of date, so Delete still asks the server).
 */
export function accountsInUseText(accounts: number): string {
  return accounts === 1
    ? '1 connected Reddit account signs in through it, so it cannot be deleted: the account would have to be re-authenticated. Disable it instead: the account keeps working and no new accounts connect through it.'
    : `${accounts} connected Reddit accounts sign in through it, so it cannot be deleted: they would have to be re-authenticated. Disable it instead: they keep working and no new accounts connect through it.`;
}

/** Why Replace Proxy is disabled: the server has no PROXY_URL_TEMPLATE to take a new proxy from. */
export const NO_PROXY_PROVIDER_TEXT =
  'No proxy provider is configured (PROXY_URL_TEMPLATE), so this credential connects directly.';

/** '{prefix}: {reason}', the reason being the server's detail or the client's own message. */
export function failureMessage(prefix: string, error: unknown): string {
  return `${prefix}: ${errorMessage(error, 'Unknown error')}`;
}

/** The details dialog's load error: 'Credential not found' for a 404, the generic text otherwise. */
export function detailsErrorMessage(error: unknown): string {
  return error instanceof ApiError && error.status === 404
    ? CREDENTIAL_MESSAGES.notFound
    : CREDENTIAL_MESSAGES.detailsFailed;
}
