import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { RedditApi, RedditCallMode } from '../../integrations/reddit';
import { RedditAuthError } from '../../integrations/reddit';
import type { SecretRef } from '../../security/secrets';
import { AppError } from '../../http/errors';
import { redditClientFor } from '../credentials';
import { redditAccounts, type RedditAccountRow } from './accounts.table';

export function refreshTokenRef(accountId: string): SecretRef {
  return { table: 'reddit_accounts', rowId: accountId, column: 'refresh_token_ciphertext' };
}

/** The account cannot act on Reddit until its owner signs in again (Auth Required). */
export class AccountAuthRequiredError extends AppError {
  constructor(readonly accountId: string) {
    super(409, 'account_auth_required', 'This Reddit account needs to be re-authenticated.');
  }
}

/**
 * The Reddit API as this connected account, through the send credential it was authorized with. A
 * missing grant, a removed credential or a refused refresh token raises AccountAuthRequiredError; a
 * refusal also marks the account expired so the panel shows Auth Required.
 */
export async function redditApiForAccount(
  ctx: AppContext,
  account: RedditAccountRow,
  mode?: RedditCallMode,
): Promise<RedditApi> {
  if (!account.credentialId || !account.refreshTokenCiphertext || account.authStatus !== 'valid') {
    throw new AccountAuthRequiredError(account.id);
  }
  const refreshToken = ctx.secrets.decrypt(account.refreshTokenCiphertext, refreshTokenRef(account.id));
  const client = await redditClientFor(ctx, account.credentialId);
  return client.forAccount({ id: account.id, refreshToken }, mode);
}

/** Runs a call as the account; a refused grant marks it expired and becomes AccountAuthRequiredError. */
export async function asAccount<T>(
  ctx: AppContext,
  account: RedditAccountRow,
  call: (api: RedditApi) => Promise<T>,
  mode?: RedditCallMode,
): Promise<T> {
  const api = await redditApiForAccount(ctx, account, mode);
  try {
    return await call(api);
  } catch (error) {
    if (error instanceof RedditAuthError) {
      await markAuthExpired(ctx, account.id);
      throw new AccountAuthRequiredError(account.id);
    }
    throw error;
  }
}

export async function markAuthExpired(ctx: AppContext, accountId: string): Promise<void> {
  const now = new Date(ctx.clock.now());
  await ctx.db
    .update(redditAccounts)
    .set({ authStatus: 'expired', authCheckedAt: now, updatedAt: now })
    .where(eq(redditAccounts.id, accountId));
}
