import {
  DM_LOCKED_STATES,
  DM_SENT_READ_ONLY,
  DM_TEXTS,
  ZDmSourceType,
  type TDmList,
  type TDmMessage,
  type TDmMessagesResponse,
  type TDmSource,
  type TDmSourceType,
  type TGenerateDmsResponse,
  type TPageQuery,
} from '@threadreach/contract';
import { AiError } from '../../ai/ai.provider';
import type { AppContext } from '../../context';
import type { Db, DbOrTx } from '../../db/client';
import { AppError, badRequest, notFound } from '../../http/errors';
import type { ChildResource } from '../projects';
import {
  generateDms,
  leadCandidate,
  profileCandidate,
  requireProduct,
  type DmOutcome,
} from './dm-generation';
import { expiryCutoff } from './dm-expiry';
import { presentDm } from './dms.presenter';
import { startDmGeneration } from './generate-all-dms';
import { generateDmsJob } from './generate-dms.job';
import {
  deleteDm,
  deleteExamplesOfDm,
  dmOwners,
  findAnyLeadSource,
  findDm,
  findExampleOfDm,
  findLeadSources,
  findProfileSource,
  insertExample,
  dmsWithStanding,
  listDmPage,
  lockDms,
  type DmListFilter,
  updateDm,
  updateExample,
} from './dms.repository';
import type { DmMessageRow, DmState } from './dms.table';

const DM_NOT_FOUND = 'DM not found';

/** DMs that `child` scopes name ('dm'). */
export const dmChildResource: ChildResource = {
  name: 'dm',
  notFoundDetail: DM_NOT_FOUND,
  ownersOf: (db: Db, ids: string[]) => dmOwners(db, ids),
};

const isLocked = (row: DmMessageRow) => DM_LOCKED_STATES.includes(row.state);
const sentConflict = () => new AppError(409, 'dm_sent', DM_SENT_READ_ONLY);

/**
 * DMs of one project as presented, each with its recipient's entry on the workspace's do-not-contact list,
 * whether they already answered the workspace, and whether its lead is too old to send it.
 */
async function presentWithList(ctx: AppContext, rows: DmMessageRow[]): Promise<TDmMessage[]> {
  const read = await dmsWithStanding(
    ctx.db,
    rows.map((r) => r.id),
    expiryCutoff(ctx),
  );
  const standing = new Map(read.map((s) => [s.dm.id, s]));
  return rows.map((r) => presentDm(r, standing.get(r.id) ?? NO_STANDING));
}

const NO_STANDING = { suppression: null, answered: false, leadExpired: false };

/** Step 4's list of DMs, newest first, optionally only those to some names or in one state. */
export async function listDms(
  ctx: AppContext,
  projectId: string,
  page: TPageQuery & DmListFilter,
): Promise<TDmList> {
  const { rows, total, ready } = await listDmPage(ctx.db, projectId, page, expiryCutoff(ctx));
  return {
    items: rows.map((r) => presentDm(r.dm, r)),
    total,
    limit: page.limit,
    offset: page.offset,
    ready_to_send: ready,
  };
}

/**
 * The answer of the generate calls; when the engine failed for every lead asked, a 502. A DM written about
 * a lead already older than DM_EXPIRY_DAYS says so, as the list does.
 */
async function generationAnswer(ctx: AppContext, outcomes: DmOutcome[]): Promise<TGenerateDmsResponse> {
  const answer: TGenerateDmsResponse = { generated_messages: [], skipped: [], failed: [] };
  const written: DmMessageRow[] = [];
  for (const o of outcomes) {
    if (o.kind === 'generated') written.push(o.dm);
    else if (o.kind === 'skipped') answer.skipped.push(o.skipped);
    else answer.failed.push({ id: o.id, detail: o.detail });
  }
  if (answer.failed.length > 0 && answer.failed.length === outcomes.length) {
    throw new AppError(502, 'dm_generation_failed', DM_TEXTS.generateFailed, { failed: answer.failed });
  }
  answer.generated_messages = await presentWithList(ctx, written);
  return answer;
}

/** A DM for each selected post of the project, in the order given. */
export async function generateForPosts(
  ctx: AppContext,
  projectId: string,
  postIds: string[],
): Promise<TGenerateDmsResponse> {
  const product = await requireProduct(ctx, projectId);
  const ids = [...new Set(postIds)];
  const rows = new Map((await findLeadSources(ctx.db, projectId, 'post', ids)).map((r) => [r.leadId, r]));
  const candidates = ids.map((id) => {
    const row = rows.get(id);
    if (!row) throw notFound('Post not found');
    return leadCandidate(row);
  });
  return generationAnswer(ctx, await generateDms(ctx, projectId, product, candidates));
}

export async function generateForComment(
  ctx: AppContext,
  projectId: string,
  commentId: string,
): Promise<TGenerateDmsResponse> {
  const product = await requireProduct(ctx, projectId);
  const [row] = await findLeadSources(ctx.db, projectId, 'comment', [commentId]);
  if (!row) throw notFound('Comment not found');
  return generationAnswer(ctx, await generateDms(ctx, projectId, product, [leadCandidate(row)]));
}

export async function generateForProfile(
  ctx: AppContext,
  projectId: string,
  profileId: string,
): Promise<TGenerateDmsResponse> {
  const product = await requireProduct(ctx, projectId);
  const row = await findProfileSource(ctx.db, projectId, profileId, { includeDismissed: false });
  if (!row) throw notFound('Profile not found');
  return generationAnswer(ctx, await generateDms(ctx, projectId, product, [profileCandidate(row)]));
}

export interface DmTextInput {
  id: string;
  message_content: string;
  /** Approve (true) or take back to draft (false); left out, the state stays. */
  approved?: boolean;
}

/** The state an approval moves a DM to; a queued DM stays queued when approved again. */
function approvalState(current: DmState, approved: boolean | undefined): DmState {
  if (approved === undefined) return current;
  if (!approved) return 'draft';
  return current === 'queued' ? 'queued' : 'approved';
}

/**
 * Keeps the customer's edit as a message example, one per DM (agent mode learns their writing from these):
 * created on the first save that differs from what the AI wrote, updated on later saves, and removed when the
 * text is back to the AI's.
 */
async function recordExample(tx: DbOrTx, row: DmMessageRow, text: string, now: Date): Promise<void> {
  if (text === row.originalContent) {
    await deleteExamplesOfDm(tx, row.projectId, row.id);
    return;
  }
  const values = {
    finalMessage: text,
    originalGenerated: row.originalContent,
    originalContext: {
      source_type: row.sourceType,
      source_id:
        row.sourceType === 'profile' ? (row.profileId ?? row.redditPostId) : (row.leadId ?? row.redditPostId),
    },
    postTitle: row.postTitle,
    postContent: row.sourceType === 'comment' ? row.commentContent : row.postContent,
    subreddit: row.subreddit,
  };
  const existing = await findExampleOfDm(tx, row.id);
  if (existing) await updateExample(tx, row.projectId, existing.id, values);
  else
    await insertExample(tx, {
      projectId: row.projectId,
      dmId: row.id,
      exampleType: 'user_approved',
      createdAt: now,
      ...values,
    });
}

/**
 * Saves DM texts (and approvals), all or none: a DM that is sent or on its way cannot change (409). A text
 * that differs from the saved one marks the DM edited now.
 */
export async function saveDmTexts(
  ctx: AppContext,
  projectId: string,
  items: DmTextInput[],
): Promise<TDmMessagesResponse> {
  const saved = await ctx.db.transaction(async (tx) => {
    const rows = new Map(
      (
        await lockDms(
          tx,
          projectId,
          items.map((i) => i.id),
        )
      ).map((r) => [r.id, r]),
    );
    if (items.some((i) => !rows.has(i.id))) throw notFound(DM_NOT_FOUND);
    if ([...rows.values()].some(isLocked)) throw sentConflict();
    const now = new Date(ctx.clock.now());
    const out: DmMessageRow[] = [];
    for (const item of items) {
      const row = rows.get(item.id)!;
      const text = item.message_content;
      const changed = text !== row.messageContent;
      const updated = await updateDm(tx, projectId, row.id, {
        messageContent: text,
        state: approvalState(row.state, item.approved),
        updatedAt: now,
        ...(changed ? { editedAt: now } : {}),
      });
      await recordExample(tx, row, text, now);
      out.push(updated!);
    }
    return out;
  });
  return { messages: await presentWithList(ctx, saved) };
}

/** Deletes a DM for good, unless it was sent or is on its way (409: it stays in the history). */
export async function deleteDmOf(ctx: AppContext, projectId: string, id: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const [row] = await lockDms(tx, projectId, [id]);
    if (!row) throw notFound(DM_NOT_FOUND);
    if (isLocked(row)) throw sentConflict();
    await deleteDm(tx, projectId, id);
  });
}

/** The DM's source type: its own, or the one its reddit_post_id prefix tells (spec section 3). */
function sourceTypeOf(row: DmMessageRow): TDmSourceType | null {
  const own = ZDmSourceType.safeParse(row.sourceType);
  if (own.success) return own.data;
  if (row.redditPostId.startsWith('comment_')) return 'comment';
  if (row.redditPostId.startsWith('profile_')) return 'profile';
  return row.redditPostId ? 'post' : null;
}

/**
 * What the DM answered, to write it again: the lead or profile as stored now, or for posts and comments the
 * text kept with the DM when the lead is gone.
 */
async function regenerationSource(ctx: AppContext, row: DmMessageRow): Promise<TDmSource> {
  const type = sourceTypeOf(row);
  if (type === 'profile') {
    const profile = row.profileId
      ? await findProfileSource(ctx.db, row.projectId, row.profileId, { includeDismissed: true })
      : null;
    if (!profile) throw notFound(DM_TEXTS.profileNotFound);
    return profileCandidate(profile).source;
  }
  if (type === 'post' || type === 'comment') {
    const lead = row.leadId ? await findAnyLeadSource(ctx.db, row.projectId, row.leadId) : null;
    if (lead && lead.kind === type) return leadCandidate(lead).source;
    const stored = {
      author: row.recipientUsername,
      subreddit: row.subreddit ?? '',
      matched_keywords: row.matchedKeywords,
    };
    if (type === 'comment') {
      if (row.commentContent === null || !row.subreddit) throw notFound(DM_TEXTS.commentNotFound);
      return {
        source_type: 'comment',
        id: row.redditPostId.replace(/^comment_/, ''),
        content: row.commentContent,
        post_title: row.postTitle ?? '',
        ...stored,
      };
    }
    if (row.postTitle !== null && row.subreddit) {
      return {
        source_type: 'post',
        id: row.redditPostId,
        title: row.postTitle,
        content: row.postContent ?? '',
        ...stored,
      };
    }
  }
  throw badRequest(DM_TEXTS.unknownSource, 'unknown_source');
}

/**
 * "Regenerate": the next variant of an unsent DM, written from what it answered. The new text becomes the
 * AI's original (so the DM is no longer edited) and the DM counts as generated again; a queued DM stays
 * queued with the new text.
 */
export async function regenerateDmOf(ctx: AppContext, projectId: string, id: string) {
  const row = await findDm(ctx.db, projectId, id);
  if (!row) throw notFound(DM_NOT_FOUND);
  if (isLocked(row)) throw sentConflict();
  const source = await regenerationSource(ctx, row);
  const product = await requireProduct(ctx, projectId);
  let draft;
  try {
    draft = await ctx.ai.regenerateDm({
      product,
      source,
      patterns: null,
      // The engine's own last draft: it writes a variant unlike that one (an edit is the customer's text).
      previous: { message_content: row.originalContent, variant: row.variant },
    });
  } catch (error) {
    if (!(error instanceof AiError)) throw error;
    ctx.log.warn({ dmId: id, code: error.code }, `DM regeneration failed: ${error.message}`);
    throw new AppError(502, 'regeneration_failed', DM_TEXTS.regenerateFailed);
  }
  const text = draft.message_content.trim();
  if (!text || text === row.originalContent.trim() || text === row.messageContent.trim()) {
    throw new AppError(502, 'no_new_content', DM_TEXTS.noNewContent);
  }
  const updated = await ctx.db.transaction(async (tx) => {
    const [locked] = await lockDms(tx, projectId, [id]);
    if (!locked) throw notFound(DM_NOT_FOUND);
    // Sent while the engine was writing.
    if (isLocked(locked)) throw sentConflict();
    const now = new Date(ctx.clock.now());
    return updateDm(tx, projectId, id, {
      messageContent: text,
      originalContent: text,
      variant: draft.variant,
      editedAt: null,
      state: locked.state === 'queued' ? 'queued' : 'approved',
      updatedAt: now,
    });
  });
  const [presented] = await presentWithList(ctx, [updated!]);
  return presented!;
}

/** "Generate All DMs" for the project's leads scoring at least `minScore`: 'running' when one already is. */
export function startGenerateAllDms(
  ctx: AppContext,
  projectId: string,
  minScore: number,
): Promise<'started' | 'running'> {
  return startDmGeneration(ctx, projectId, minScore, (queue) =>
    queue.enqueue(generateDmsJob, { projectId }, { singletonKey: projectId }),
  );
}
