import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomUUID } from 'node:crypto';
import type { RedditSim } from '@threadreach/reddit-sim';
import type { AppContext } from '../../context';
import type { DbOrTx } from '../../db/client';
import type { TRedditMessageListing } from '../../integrations/reddit';
import {
  parseRedditAnswer,
  REDDIT_ENDPOINTS,
  redditEndpointOf,
} from '../../integrations/reddit/reddit.endpoints';
import { redditAccounts, refreshTokenRef, type RedditAccountRow } from '../accounts';
import { createCredential, redditClientFor } from '../credentials';
import { dmMessages, type DmMessageRow, type DmState } from '../dms/dms.table';
import { dmReplies, type DmReplyRow } from './replies.table';

export interface DmSpec {
  projectId: string;
  /** The workspace: the project's owner. */
  ownerUserId: string;
  recipient: string;
  state?: DmState;
  subject?: string;
  text?: string;
  accountId?: string | null;
  /** The claiming Reddit account's name, as a claim records it (kept when its connection is removed). */
  sender?: string | null;
  /** When it was sent (sent DMs; also their claim time). */
  sentAt?: Date | null;
  createdAt?: Date;
  repliedAt?: Date | null;
  subreddit?: string | null;
  postTitle?: string | null;
}

/** A DM row written straight to the table, in any state. */
export async function insertDm(db: DbOrTx, spec: DmSpec): Promise<DmMessageRow> {
  const state = spec.state ?? 'sent';
  const createdAt = spec.createdAt ?? new Date(Date.UTC(2026, 0, 1));
  const sentAt = spec.sentAt === undefined ? (state === 'sent' ? createdAt : null) : spec.sentAt;
  const text = spec.text ?? `Hi u/${spec.recipient}, saw your post and thought our tool could help.`;
  const [row] = await db
    .insert(dmMessages)
    .values({
      projectId: spec.projectId,
      ownerUserId: spec.ownerUserId,
      sourceType: 'post',
      redditPostId: `t3_${randomUUID().slice(0, 8)}`,
      postTitle: spec.postTitle === undefined ? 'Looking for a CRM' : spec.postTitle,
      subreddit: spec.subreddit === undefined ? 'SaaS' : spec.subreddit,
      matchedKeywords: ['crm'],
      recipientUsername: spec.recipient,
      recipientKey: spec.recipient.toLowerCase(),
      subject: spec.subject ?? 'About your post',
      messageContent: text,
      originalContent: text,
      state,
      accountId: spec.accountId ?? null,
      senderKey: spec.sender?.toLowerCase() ?? null,
      claimedAt: sentAt,
      sentAt,
      repliedAt: spec.repliedAt ?? null,
      createdAt,
      updatedAt: createdAt,
    })
    .returning();
  return row!;
}

/** Recorded Reddit traffic, beside the repository (never copied into it). */
export const RECORDINGS =
  process.env.REDDIT_RECORDINGS_DIR ??
  fileURLToPath(new URL('../../../../../../shared/fixtures/reddit-real/', import.meta.url));
export const hasRecordings = existsSync(RECORDINGS);

/**
 * The message listing a recording holds for one box, read exactly as the client reads Reddit's answer
 * (the endpoint's schema through `parseRedditAnswer`).
 */
export function recordedListing(file: string, box: 'messages' | 'unread' | 'sent'): TRedditMessageListing {
  const cassette = JSON.parse(readFileSync(path.join(RECORDINGS, file), 'utf8')) as {
    interactions: Array<{
      request: { method: string; url: string };
      response: { status: number; body: unknown };
    }>;
  };
  const endpoint = REDDIT_ENDPOINTS[box];
  const found = cassette.interactions.find(
    (i) => redditEndpointOf(i.request.method, new URL(i.request.url).pathname) === endpoint,
  );
  if (!found) throw new Error(`${file} has no ${endpoint.label}`);
  const { body, status } = found.response;
  const answer = parseRedditAnswer(endpoint, status, typeof body === 'string' ? body : JSON.stringify(body));
  if (answer.kind !== 'data') throw new Error(`${file}: ${JSON.stringify(answer)}`);
  return answer.value;
}

const REDIRECT_URI = 'http://127.0.0.1:9/reddit/callback';

/**
 * A Reddit account of the simulator connected to a project the way a customer connects one: a send
 * credential, the account's consent on Reddit's authorize page, the code exchanged for a refresh token
 * that is stored encrypted.
 */
export async function connectSimAccount(
  ctx: AppContext,
  sim: RedditSim,
  project: { id: string; owner: { id: string } },
  username = 'demo_founder',
): Promise<RedditAccountRow> {
  const credential = await createCredential(ctx, {
    type: 'send',
    account_name: 'threadreach_send',
    client_id: `send-${randomUUID().slice(0, 8)}`,
    client_secret: `secret-${randomUUID()}`,
    enabled: true,
  });
  const client = await redditClientFor(ctx, credential.id);
  const consent = new URL(client.authorizeUrl({ state: 'connect', redirectUri: REDIRECT_URI })).searchParams;
  consent.set('username', username);
  consent.set('authorize', 'Approve');
  const approved = await fetch(new URL('/api/v1/authorize', sim.url), {
    method: 'POST',
    body: consent,
    redirect: 'manual',
    headers: { 'user-agent': 'web:threadreach-tests:0.1.0 (by /u/threadreach_bot)' },
  });
  const code = new URL(approved.headers.get('location')!).searchParams.get('code');
  if (!code) throw new Error(`no code from the authorize page: ${approved.headers.get('location')}`);
  const grant = await client.exchangeCode(code, REDIRECT_URI);
  return insertAccount(ctx, project, {
    credentialId: credential.id,
    username,
    refreshToken: grant.refreshToken!,
  });
}

/** A connected-account row with the given (encrypted) refresh token. */
export async function insertAccount(
  ctx: AppContext,
  project: { id: string; owner: { id: string } },
  spec: { credentialId: string | null; username: string; refreshToken: string; authStatus?: string },
): Promise<RedditAccountRow> {
  const id = randomUUID();
  const [row] = await ctx.db
    .insert(redditAccounts)
    .values({
      id,
      projectId: project.id,
      ownerUserId: project.owner.id,
      credentialId: spec.credentialId,
      redditUsername: spec.username,
      refreshTokenCiphertext: ctx.secrets.encrypt(spec.refreshToken, refreshTokenRef(id)),
      authStatus: spec.authStatus ?? 'valid',
      accountCreatedAt: new Date(Date.UTC(2024, 0, 1)),
    })
    .returning();
  return row!;
}

/** A reply to a DM, written straight to the table. */
export async function insertReplyRow(
  db: DbOrTx,
  dm: Pick<DmMessageRow, 'id' | 'projectId' | 'recipientUsername' | 'accountId'>,
  spec: { body: string; receivedAt: Date; isRefusal?: boolean },
): Promise<DmReplyRow> {
  const [row] = await db
    .insert(dmReplies)
    .values({
      projectId: dm.projectId,
      dmId: dm.id,
      accountId: dm.accountId,
      redditName: `t4_${randomUUID().slice(0, 8)}`,
      author: dm.recipientUsername,
      body: spec.body,
      isRefusal: spec.isRefusal ?? false,
      receivedAt: spec.receivedAt,
      createdAt: spec.receivedAt,
    })
    .returning();
  return row!;
}
