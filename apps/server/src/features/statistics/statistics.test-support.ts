import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { redditAccounts, refreshTokenRef, type RedditAccountRow } from '../accounts';
import { createCredential, redditClientFor } from '../credentials';
import { discoverySearches } from '../discovery/discovery.table';
import { dmMessages, type DmMessageRow, type DmState } from '../dms/dms.table';
import { dmReplies } from '../replies/replies.table';

type Project = { id: string; userId: string };

/** Reddit refuses generic user agents, as the simulator does. */
export const BROWSER = 'threadreach-tests/1.0 (by /u/tester)';

/** A connected account of the project (no working grant unless one is given). */
export async function buildAccount(
  db: Db,
  project: Project,
  overrides: Partial<typeof redditAccounts.$inferInsert> = {},
): Promise<RedditAccountRow> {
  const [row] = await db
    .insert(redditAccounts)
    .values({
      projectId: project.id,
      ownerUserId: project.userId,
      redditUsername: `acct_${randomUUID().slice(0, 8)}`,
      ...overrides,
    })
    .returning();
  return row!;
}

/**
 * A DM of the project in `state`; the instants its state implies default to `at` (sent_at of a sent DM,
 * failed_at of a failed one, updated_at of an expired one), created an hour earlier.
 */
export async function buildDm(
  db: Db,
  project: Project,
  state: DmState,
  at: Date,
  overrides: Partial<typeof dmMessages.$inferInsert> = {},
): Promise<DmMessageRow> {
  const recipient = `person_${randomUUID().slice(0, 8)}`;
  const created = new Date(at.getTime() - 3_600_000);
  // A claim names its sender, as a real one does.
  const sender = overrides.accountId
    ? (await db.select().from(redditAccounts).where(eq(redditAccounts.id, overrides.accountId)))[0]
    : undefined;
  const senderKey =
    sender && (state === 'sent' || state === 'failed') ? sender.redditUsername.toLowerCase() : null;
  const [row] = await db
    .insert(dmMessages)
    .values({
      projectId: project.id,
      ownerUserId: project.userId,
      sourceType: 'post',
      redditPostId: `t3_${randomUUID().slice(0, 10)}`,
      subreddit: 'saas',
      matchedKeywords: ['crm'],
      recipientUsername: recipient,
      recipientKey: recipient.toLowerCase(),
      subject: 'Your question about CRMs',
      messageContent: 'Hi! Saw your post about CRMs.',
      originalContent: 'Hi! Saw your post about CRMs.',
      state,
      createdAt: created,
      updatedAt: state === 'expired' ? at : created,
      ...(state === 'sent' ? { sentAt: at, claimedAt: at, senderKey } : {}),
      ...(state === 'failed' ? { failedAt: at, claimedAt: at, senderKey } : {}),
      ...overrides,
    })
    .returning();
  return row!;
}

export async function buildReply(db: Db, dm: DmMessageRow, receivedAt: Date): Promise<void> {
  await db.insert(dmReplies).values({
    projectId: dm.projectId,
    dmId: dm.id,
    accountId: dm.accountId,
    redditName: `t4_${randomUUID().slice(0, 8)}`,
    author: dm.recipientUsername,
    body: 'Thanks, tell me more',
    receivedAt,
    createdAt: receivedAt,
  });
}

export async function buildSearch(db: Db, projectId: string, startedAt: Date): Promise<void> {
  await db.insert(discoverySearches).values({
    projectId,
    trigger: 'enhanced',
    status: 'completed',
    startedAt,
    finishedAt: new Date(startedAt.getTime() + 60_000),
  });
}

/** A send credential for the test's simulator (which takes any client), with its secret. */
export async function addSendCredential(ctx: AppContext) {
  const clientId = `send-${randomUUID().slice(0, 8)}`;
  const clientSecret = `secret-${randomUUID()}`;
  const credential = await createCredential(ctx, {
    type: 'send',
    account_name: 'threadreach_send',
    client_id: clientId,
    client_secret: clientSecret,
    enabled: true,
  });
  return { id: credential.id, clientId, clientSecret };
}

/**
 * Connects the simulator's `username` to the project as the consent page would, through the credential:
 * the account row holds its real (encrypted) refresh token. Returns the row and that token.
 */
export async function connectSimAccount(
  ctx: AppContext,
  project: Project,
  credentialId: string,
  username: string,
): Promise<{ account: RedditAccountRow; refreshToken: string }> {
  const client = await redditClientFor(ctx, credentialId);
  const redirectUri = 'http://127.0.0.1:9/api/v1/auth/reddit/callback';
  const authorize = new URL(client.authorizeUrl({ state: 'st4te', redirectUri }));
  const form = new URLSearchParams(authorize.searchParams);
  form.set('username', username);
  form.set('authorize', 'Approve');
  const approved = await fetch(new URL(authorize.pathname, authorize.origin), {
    method: 'POST',
    body: form,
    redirect: 'manual',
    headers: { 'user-agent': BROWSER },
  });
  const code = new URL(approved.headers.get('location')!).searchParams.get('code')!;
  const grant = await client.exchangeCode(code, redirectUri);
  const id = randomUUID();
  const account = await buildAccount(ctx.db, project, {
    id,
    credentialId,
    redditUsername: username,
    refreshTokenCiphertext: ctx.secrets.encrypt(grant.refreshToken!, refreshTokenRef(id)),
  });
  return { account, refreshToken: grant.refreshToken! };
}
