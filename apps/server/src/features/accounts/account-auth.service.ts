import { randomBytes, randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import {
  REDDIT_CALLBACK_ERRORS,
  accountLimitReachedDetail,
  connectedElsewhereDetail,
  isModerator,
  redditAuthEndpoints,
  wrongRedditAccountDetail,
  type TRedditLoginResponse,
} from '@threadreach/contract';
import type { AppContext } from '../../context';
import type { DbOrTx } from '../../db/client';
import { AppError } from '../../http/errors';
import {
  RedditAuthError,
  type RedditClient,
  type TRedditMe,
  type TokenGrant,
} from '../../integrations/reddit';
import type { AuthUser } from '../auth';
import { redditClientFor, redditClientsOfType } from '../credentials';
import type { ProjectWithOwner } from '../projects';
import { projects } from '../projects/projects.table';
import { users } from '../users/users.table';
import { refreshTokenRef } from './account-client';
import {
  countOwnerAccounts,
  ownerHasRedditAccount,
  findProjectAccount,
  findProjectAccountByUsername,
  insertAccount,
  isConnectedElsewhere,
  lockRedditName,
  insertAuthState,
  takeAuthState,
  trimAuthStates,
  updateProjectAccount,
  type NewRedditAccount,
  type RedditAuthStateRow,
} from './accounts.repository';
import type { RedditAccountRow } from './accounts.table';

/** A started sign-in can be completed this long (spec section 7's flow; as long as Reddit keeps a code). */
export const REDDIT_AUTH_TTL_MS = 10 * 60_000;
/** Sign-ins one user may have pending; beyond it the oldest give way. */
export const REDDIT_AUTH_PENDING_PER_USER = 5;
/** What a connected account lets Threadreach do: who it is, read, DMs and its sent box. */
export const REDDIT_ACCOUNT_SCOPES = ['identity', 'read', 'privatemessages', 'history'] as const;

export const SUSPENDED_REASON = 'Reddit has suspended this account.';

/** What Reddit's suspension flag makes of an account's reason not to send; other reasons stay. */
export function suspensionReason(isSuspended: boolean, current: string | null): string | null {
  if (isSuspended) return SUSPENDED_REASON;
  return current === SUSPENDED_REASON ? null : current;
}

/** Short texts the app shows after 'Reddit authentication failed: '; never Reddit's own words. */
/** The callback's refusals: texts the app shows only when they are these (`isRedditCallbackMessage`). */
export const CALLBACK_ERRORS = REDDIT_CALLBACK_ERRORS;
export { connectedElsewhereDetail };

/** A refusal the person can act on; its message goes back to the app as it is. */
class ConnectRefusedError extends Error {
  override name = 'ConnectRefusedError';
}

export function redditRedirectUri(ctx: AppContext): string {
  return `${ctx.config.publicUrl}${redditAuthEndpoints.callback.path}`;
}

export interface ConnectLimit {
  used: number;
  /** null: no limit (moderators and admins). */
  limit: number | null;
  blockedReason: string | null;
}

/**
 * Whether `caller` may connect another account to the project: the owner's accounts over all their
 * projects against their profiles_limit; moderators and admins connect without limit (spec section 5).
 */
export async function connectLimitFor(
  db: DbOrTx,
  caller: { roles: unknown },
  project: Pick<ProjectWithOwner, 'userId'>,
): Promise<ConnectLimit> {
  const used = await countOwnerAccounts(db, project.userId);
  if (isModerator(caller.roles)) return { used, limit: null, blockedReason: null };
  const [owner] = await db
    .select({ profilesLimit: users.profilesLimit })
    .from(users)
    .where(eq(users.id, project.userId));
  const limit = Math.max(0, owner?.profilesLimit ?? 0);
  return { used, limit, blockedReason: used >= limit ? accountLimitReachedDetail(used, limit) : null };
}

/**
 * Starts connecting an account (or signing `account` in again) through the least recently used send
 * credential: the state is kept on the server, single use, for 10 minutes.
 */
export async function startRedditLogin(
  ctx: AppContext,
  caller: AuthUser,
  project: ProjectWithOwner,
  account?: RedditAccountRow,
): Promise<TRedditLoginResponse> {
  if (!account) {
    const { blockedReason } = await connectLimitFor(ctx.db, caller, project);
    if (blockedReason) throw new AppError(403, 'account_limit_reached', blockedReason);
  }
  const [client] = await redditClientsOfType(ctx, 'send');
  if (!client) {
    throw new AppError(
      503,
      'no_send_credential',
      'Connecting Reddit accounts is not set up yet: an administrator needs to add an enabled send credential.',
    );
  }
  const now = ctx.clock.now();
  const state = randomBytes(32).toString('base64url');
  await insertAuthState(ctx.db, {
    state,
    userId: caller.id,
    projectId: project.id,
    credentialId: client.credentialId,
    accountId: account?.id ?? null,
    expiresAt: new Date(now + REDDIT_AUTH_TTL_MS),
  });
  await trimAuthStates(ctx.db, caller.id, new Date(now), REDDIT_AUTH_PENDING_PER_USER);
  return {
    auth_url: client.authorizeUrl({
      state,
      redirectUri: redditRedirectUri(ctx),
      scopes: REDDIT_ACCOUNT_SCOPES,
    }),
  };
}

/** Where the browser goes back to in the app: always the root, never a target named in the request. */
function appLocation(params: Record<string, string>): string {
  return `/?${new URLSearchParams(params).toString()}`;
}

/** Where the callback sends the person, and the account it connected (null when it failed). */
export interface CallbackOutcome {
  location: string;
  connected: RedditAccountRow | null;
}

function failed(message: string, projectId?: string): CallbackOutcome {
  const location = appLocation({ auth: 'error', message, ...(projectId ? { project_id: projectId } : {}) });
  return { location, connected: null };
}

/**
 * Reddit's redirect back: the state must be one this server handed out, unused and unexpired. Connects
 * the account and returns the app's address with the outcome (spec section 2: auth, username,
 * project_id, message), and the account when it was connected.
 */
export async function completeRedditLogin(
  ctx: AppContext,
  query: { code?: string; state?: string; error?: string },
): Promise<CallbackOutcome> {
  const stored = query.state ? await takeAuthState(ctx.db, query.state, new Date(ctx.clock.now())) : null;
  if (query.error) {
    ctx.log.info({ redditError: query.error.slice(0, 100) }, 'Reddit sign-in not authorized');
    const message = query.error === 'access_denied' ? CALLBACK_ERRORS.denied : CALLBACK_ERRORS.notAuthorized;
    return failed(message, stored?.projectId);
  }
  if (!stored) return failed(CALLBACK_ERRORS.stateInvalid);
  if (!query.code) return failed(CALLBACK_ERRORS.notAuthorized, stored.projectId);
  try {
    const account = await connectAccount(ctx, stored, query.code);
    const location = appLocation({
      auth: 'success',
      username: account.redditUsername,
      project_id: account.projectId,
    });
    return { location, connected: account };
  } catch (error) {
    if (error instanceof ConnectRefusedError) return failed(error.message, stored.projectId);
    ctx.log.warn({ err: error, projectId: stored.projectId }, 'Reddit account could not be connected');
    return failed(CALLBACK_ERRORS.failed, stored.projectId);
  }
}

async function exchange(client: RedditClient, ctx: AppContext, code: string): Promise<TokenGrant> {
  try {
    return await client.exchangeCode(code, redditRedirectUri(ctx));
  } catch (error) {
    ctx.log.warn({ err: error }, 'Reddit code exchange failed');
    throw new ConnectRefusedError(
      error instanceof RedditAuthError ? CALLBACK_ERRORS.refused : CALLBACK_ERRORS.unreachable,
    );
  }
}

async function connectAccount(
  ctx: AppContext,
  stored: RedditAuthStateRow,
  code: string,
): Promise<RedditAccountRow> {
  const client = await redditClientFor(ctx, stored.credentialId);
  const grant = await exchange(client, ctx, code);
  if (!grant.refreshToken) throw new ConnectRefusedError(CALLBACK_ERRORS.notPermanent);
  const refreshToken = grant.refreshToken;
  const provisionalId = stored.accountId ?? randomUUID();
  let me: TRedditMe;
  try {
    const api = await client.forSignedInAccount({ id: provisionalId, refreshToken }, grant);
    me = await api.me();
  } catch (error) {
    ctx.log.warn({ err: error }, 'Reddit identity of a new account could not be read');
    throw new ConnectRefusedError(CALLBACK_ERRORS.unreachable);
  }

  const now = new Date(ctx.clock.now());
  const fromReddit = (id: string, current?: RedditAccountRow): Partial<NewRedditAccount> => ({
    credentialId: client.credentialId,
    redditUsername: me.name,
    redditUserId: me.id.startsWith('t2_') ? me.id : `t2_${me.id}`,
    accountCreatedAt: new Date(me.created_utc * 1000),
    commentKarma: Math.round(me.comment_karma),
    linkKarma: Math.round(me.link_karma),
    refreshTokenCiphertext: ctx.secrets.encrypt(refreshToken, refreshTokenRef(id)),
    authStatus: 'valid',
    authCheckedAt: now,
    disabledReason: suspensionReason(me.is_suspended, current?.disabledReason ?? null),
    updatedAt: now,
  });

  const account = await ctx.db.transaction(async (tx) => {
    const [project] = await tx
      .select({ id: projects.id, userId: projects.userId })
      .from(projects)
      .where(eq(projects.id, stored.projectId));
    if (!project) throw new ConnectRefusedError(CALLBACK_ERRORS.removed);
    // One connection at a time per workspace, so two cannot both take its last free slot.
    await tx.execute(sql`select ${users.id} from ${users} where ${users.id} = ${project.userId} for update`);

    if (stored.accountId) {
      const existing = await findProjectAccount(tx, project.id, stored.accountId);
      if (!existing) throw new ConnectRefusedError(CALLBACK_ERRORS.removed);
      if (existing.redditUsername.toLowerCase() !== me.name.toLowerCase()) {
        throw new ConnectRefusedError(wrongRedditAccountDetail(me.name, existing.redditUsername));
      }
      return (await updateProjectAccount(tx, project.id, existing.id, fromReddit(existing.id, existing)))!;
    }
    const existing = await findProjectAccountByUsername(tx, project.id, me.name);
    if (existing) {
      return (await updateProjectAccount(tx, project.id, existing.id, fromReddit(existing.id, existing)))!;
    }
    // A Reddit account sends for one workspace: its daily limit, the people it wrote to, their refusals
    // and the replies in its inbox are counted and matched per workspace, which two would split.
    await lockRedditName(tx, me.name);
    if (await isConnectedElsewhere(tx, me.name, project.userId)) {
      throw new ConnectRefusedError(connectedElsewhereDetail(me.name));
    }

    // An account the workspace already has in another project takes no more of its limit.
    if (!(await ownerHasRedditAccount(tx, project.userId, me.name))) {
      const [starter] = await tx
        .select({ roles: users.roles })
        .from(users)
        .where(eq(users.id, stored.userId));
      const limit = await connectLimitFor(tx, { roles: starter?.roles ?? [] }, project);
      if (limit.blockedReason) throw new ConnectRefusedError(limit.blockedReason);
    }
    return insertAccount(tx, {
      ...fromReddit(provisionalId),
      id: provisionalId,
      projectId: project.id,
      ownerUserId: project.userId,
      redditUsername: me.name,
      createdAt: now,
    });
  });
  if (account.id !== provisionalId) {
    // Reconnected an account the project already had: its id keeps the new access token.
    await client.forgetAccountToken(provisionalId);
    await client.forSignedInAccount({ id: account.id, refreshToken }, grant);
  }
  ctx.log.info(
    { accountId: account.id, projectId: account.projectId, reauthenticated: Boolean(stored.accountId) },
    'Reddit account connected',
  );
  return account;
}
