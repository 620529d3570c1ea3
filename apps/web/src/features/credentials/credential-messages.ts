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

/** Beside the question, for a send credential that connected accounts signed in through. */
export function signedOutAccountsText(accounts: number): string {
  return accounts === 1
    ? '1 connected Reddit account signed in through it: it will have to sign in to Reddit again before it can send.'
    : `${accounts} connected Reddit accounts signed in through it: they will have to sign in to Reddit again before they can send.`;
}

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
