import {
  PRODUCT_INFO_MISSING,
  type TLearningPatterns,
  type TDmSkipped,
  type TDmSkipReason,
  type TDmSource,
} from '@threadreach/contract';
import { AiError, type ProductInput } from '../../ai/ai.provider';
import { recipientOf } from '../../ai/dm-draft';
import type { AppContext } from '../../context';
import type { DbOrTx } from '../../db/client';
import { badRequest, notFound } from '../../http/errors';
import { expiryCutoff } from './dm-expiry';
import {
  contactedRecipients,
  findProductInfoRow,
  findProjectOwner,
  insertDm,
  lockProjectDms,
  ownAccountRecipients,
  recipientsWithDm,
  suppressedRecipients,
  type LeadSourceRow,
  type ProfileSourceRow,
} from './dms.repository';
import type { DmMessageRow } from './dms.table';

/** Reddit's compose form takes subjects of at most this many characters. */
export const DM_SUBJECT_MAX = 100;

/** Authors Reddit shows for removed accounts: nobody to write to. */
const GONE_AUTHORS = new Set(['[deleted]', '[removed]']);

/** What a DM is written about: the source the AI engine reads, and where it came from. */
export interface DmCandidate {
  /** The id the caller named: the lead's or the profile's. */
  id: string;
  source: TDmSource;
  leadId: string | null;
  profileId: string | null;
  /** The post's text, kept with the DM: the lead may be pruned before the DM is sent. */
  postContent: string | null;
  /** The author's account is deleted or suspended. */
  authorMissing: boolean;
  /** When the post or comment was written, for its expiry; null for a profile. */
  leadAt: Date | null;
}

export type DmOutcome =
  | { kind: 'generated'; dm: DmMessageRow }
  | { kind: 'skipped'; skipped: TDmSkipped }
  | { kind: 'failed'; id: string; detail: string };

/** The project's product information as the AI engine reads it; 400 when step 1 was never saved. */
export async function requireProduct(ctx: AppContext, projectId: string): Promise<ProductInput> {
  const info = await findProductInfoRow(ctx.db, projectId);
  if (!info || !info.productDescription.trim() || !info.callToAction.trim()) {
    throw badRequest(PRODUCT_INFO_MISSING, 'product_info_missing');
  }
  return {
    product_description: info.productDescription,
    ideal_client_profile: info.idealClientProfile,
    call_to_action: info.callToAction,
    writing_style: info.writingStyle,
  };
}

export function leadCandidate(row: LeadSourceRow): DmCandidate {
  const common = {
    id: row.leadId,
    leadId: row.leadId,
    profileId: null,
    authorMissing: row.authorMissing === true,
    leadAt: row.itemCreatedAt,
  };
  if (row.kind === 'comment') {
    return {
      ...common,
      postContent: null,
      source: {
        source_type: 'comment',
        id: row.itemName,
        content: row.body,
        post_title: row.title,
        author: row.author,
        subreddit: row.subreddit,
        matched_keywords: row.matchedKeywords,
      },
    };
  }
  return {
    ...common,
    postContent: row.body,
    source: {
      source_type: 'post',
      id: row.itemName,
      title: row.title,
      content: row.body,
      author: row.author,
      subreddit: row.subreddit,
      matched_keywords: row.matchedKeywords,
    },
  };
}

export function profileCandidate(row: ProfileSourceRow): DmCandidate {
  return {
    id: row.profileId,
    leadId: null,
    profileId: row.profileId,
    postContent: null,
    authorMissing: row.authorMissing === true,
    leadAt: null,
    source: {
      source_type: 'profile',
      id: row.profileId,
      reddit_username: row.username,
      bio_content: row.bio ?? '',
      matched_keywords: row.matchedKeywords,
    },
  };
}

function truncate(text: string, max: number): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  return clean.length <= max ? clean : `${clean.slice(0, max - 1).trimEnd()}…`;
}

/** The DM's subject line: the thread it answers, or a greeting for a profile. */
export function subjectFor(source: TDmSource): string {
  switch (source.source_type) {
    case 'post':
      return truncate(
        source.title ? `Re: ${source.title}` : `Your post in r/${source.subreddit}`,
        DM_SUBJECT_MAX,
      );
    case 'comment':
      return truncate(
        source.post_title ? `Re: ${source.post_title}` : `Your comment in r/${source.subreddit}`,
        DM_SUBJECT_MAX,
      );
    case 'profile':
      return truncate(`Hi ${source.reddit_username}`, DM_SUBJECT_MAX);
  }
}

const SKIP_TEXTS: Record<TDmSkipReason, (name: string) => string> = {
  author_deleted: (name) => `u/${name} deleted or lost their Reddit account`,
  suppressed: (name) => `u/${name} is on your do-not-contact list`,
  already_contacted: (name) => `u/${name} has already been sent a DM from this workspace`,
  own_account: (name) => `u/${name} is one of your connected Reddit accounts`,
  already_has_dm: (name) => `u/${name} already has a DM in this project`,
  lead_too_old: (name) =>
    `u/${name}'s post or comment is too old to message: a DM about it would expire unsent`,
};

function skipped(candidate: DmCandidate, reason: TDmSkipReason): DmOutcome {
  const name = recipientOf(candidate.source);
  return {
    kind: 'skipped',
    skipped: { id: candidate.id, recipient_username: name, reason, detail: SKIP_TEXTS[reason](name) },
  };
}

/**
 * Why nobody should be written to, per recipient (lower-case name): the workspace's do-not-contact list, a
 * DM already sent from the workspace, the workspace's own accounts, or a DM already in this project.
 */
async function blockedRecipients(
  db: DbOrTx,
  projectId: string,
  ownerUserId: string,
  keys: string[],
): Promise<Map<string, TDmSkipReason>> {
  // One after the other: `db` may be a transaction, whose one connection takes a query at a time.
  const suppressed = await suppressedRecipients(db, ownerUserId, keys);
  const contacted = await contactedRecipients(db, ownerUserId, keys);
  const own = await ownAccountRecipients(db, ownerUserId, keys);
  const withDm = await recipientsWithDm(db, projectId, keys);
  const blocked = new Map<string, TDmSkipReason>();
  // The most telling reason wins: a sent DM says more than "already has one here".
  for (const [reason, keysOf] of [
    ['already_has_dm', withDm],
    ['own_account', own],
    ['already_contacted', contacted],
    ['suppressed', suppressed],
  ] as const) {
    for (const key of keysOf) blocked.set(key, reason);
  }
  return blocked;
}

const keyOf = (candidate: DmCandidate) => recipientOf(candidate.source).toLowerCase();

/**
 * Writes a DM for each candidate, in order, and stores it approved ("generated"). Nobody is written to twice
 * in a project, nor when the workspace must not or already did contact them: those are skipped with the
 * reason. The checks run before the AI engine is asked and again, under the project's lock, before the DM
 * is stored. A failure of the engine for one candidate is reported and the others go on. Agent mode
 * hands in the patterns learned from the customer's edits.
 */
export async function generateDms(
  ctx: AppContext,
  projectId: string,
  product: ProductInput,
  candidates: DmCandidate[],
  options: { patterns?: TLearningPatterns | null } = {},
): Promise<DmOutcome[]> {
  const ownerUserId = await findProjectOwner(ctx.db, projectId);
  if (!ownerUserId) throw notFound('Project not found');
  const blocked = await blockedRecipients(ctx.db, projectId, ownerUserId, [
    ...new Set(candidates.map(keyOf)),
  ]);
  const cutoff = expiryCutoff(ctx);
  const outcomes: DmOutcome[] = [];
  for (const candidate of candidates) {
    const key = keyOf(candidate);
    if (candidate.authorMissing || GONE_AUTHORS.has(key)) {
      outcomes.push(skipped(candidate, 'author_deleted'));
      continue;
    }
    // expire-dms would expire such a DM before it could be sent.
    if (candidate.leadAt && candidate.leadAt < cutoff) {
      outcomes.push(skipped(candidate, 'lead_too_old'));
      continue;
    }
    const reason = blocked.get(key);
    if (reason) {
      outcomes.push(skipped(candidate, reason));
      continue;
    }
    let draft;
    try {
      draft = await ctx.ai.writeDm({ product, source: candidate.source, patterns: options.patterns ?? null });
    } catch (error) {
      if (!(error instanceof AiError)) throw error;
      outcomes.push({ kind: 'failed', id: candidate.id, detail: error.message });
      continue;
    }
    const outcome = await ctx.db.transaction(async (tx): Promise<DmOutcome> => {
      await lockProjectDms(tx, projectId);
      const now = new Date(ctx.clock.now());
      const late = (await blockedRecipients(tx, projectId, ownerUserId, [key])).get(key);
      if (late) return skipped(candidate, late);
      const dm = await insertDm(tx, {
        projectId,
        ownerUserId,
        sourceType: candidate.source.source_type,
        leadId: candidate.leadId,
        profileId: candidate.profileId,
        redditPostId: draft.reddit_post_id,
        postTitle: draft.post_title,
        postContent: candidate.postContent,
        commentContent: draft.comment_content,
        subreddit: draft.subreddit,
        matchedKeywords: draft.matched_keywords,
        recipientUsername: draft.recipient_username,
        recipientKey: draft.recipient_username.toLowerCase(),
        subject: subjectFor(candidate.source),
        messageContent: draft.message_content,
        originalContent: draft.message_content,
        variant: draft.variant,
        state: 'approved',
        createdAt: now,
        updatedAt: now,
      });
      return dm ? { kind: 'generated', dm } : skipped(candidate, 'already_has_dm');
    });
    if (outcome.kind === 'generated') blocked.set(key, 'already_has_dm');
    outcomes.push(outcome);
  }
  return outcomes;
}
