import type { TComment, TPost, TProfile, TWebhook, TWebhookPayload } from '@threadreach/contract';
import type { LeadView, ListedLeadView, ProfileView } from './leads.repository';
import type { ProjectWebhookRow } from './leads.table';

const DAY_MS = 86_400_000;

/** Whole days since the account was created, as of `now`; null until the author's profile was read. */
export function accountAgeDays(createdAt: Date | null, now: number): number | null {
  if (!createdAt) return null;
  return Math.max(0, Math.floor((now - createdAt.getTime()) / DAY_MS));
}

/**
 * The item's address on Reddit (permalinks are stored as Reddit gives them, relative). `origin` is
 * Reddit's web address (`redditWebUrl`): the simulator's in the demo, where the item's page is.
 */
export function redditUrl(permalink: string, origin: string): string {
  return permalink.startsWith('/') ? `${origin.replace(/\/+$/, '')}${permalink}` : permalink;
}

/** The lists' view of the clock: now, and DM_EXPIRY_DAYS ago (see expiryCutoff). */
export interface ListClock {
  now: number;
  /** Items written before this instant are too old to message. */
  cutoff: number;
}

function leadFields(v: ListedLeadView, { now, cutoff }: ListClock) {
  const { lead } = v;
  return {
    id: lead.id,
    reddit_id: lead.itemName,
    author: lead.author,
    subreddit: lead.subreddit,
    score: v.score,
    permalink: v.permalink,
    created_utc: lead.itemCreatedAt.toISOString(),
    found_at: lead.foundAt.toISOString(),
    account_age_days: accountAgeDays(v.accountCreatedAt, now),
    comment_karma: v.commentKarma,
    account_unavailable: v.authorMissing === true,
    too_old_to_message: lead.itemCreatedAt.getTime() < cutoff,
    matched_keywords: lead.matchedKeywords,
    matches: lead.matches,
    intent_score: lead.intentScore,
    intent_reasons: lead.intentReasons,
    has_dm: v.hasDm,
  };
}

export function presentPost(v: ListedLeadView, now: ListClock): TPost {
  return { ...leadFields(v, now), title: v.title, content: v.body };
}

/** A comment's item holds its post's title. */
export function presentComment(v: ListedLeadView, now: ListClock): TComment {
  return { ...leadFields(v, now), content: v.body, post_title: v.title };
}

export function presentProfile(v: ProfileView, now: number): TProfile {
  const { profile } = v;
  return {
    id: profile.id,
    reddit_username: profile.redditUsername,
    bio_content: v.bio,
    account_age_days: accountAgeDays(v.accountCreatedAt, now),
    comment_karma: v.commentKarma,
    account_unavailable: v.authorMissing === true,
    matched_keywords: profile.matchedKeywords,
    intent_score: profile.intentScore,
    intent_reasons: profile.intentReasons,
    lead_count: v.leadCount,
    has_dm: v.hasDm,
    // The list is ordered by the latest match, so that is the date it shows.
    found_at: profile.lastFoundAt.toISOString(),
  };
}

/** A lead as a webhook receives it. */
export function presentWebhookLead(v: LeadView, redditOrigin: string): TWebhookPayload['leads'][number] {
  const { lead } = v;
  return {
    kind: lead.kind === 'comment' ? 'comment' : 'post',
    id: lead.id,
    reddit_id: lead.itemName,
    url: redditUrl(v.permalink, redditOrigin),
    author: lead.author,
    subreddit: lead.subreddit,
    title: v.title,
    content: v.body,
    matched_keywords: lead.matchedKeywords,
    intent_score: lead.intentScore,
    intent_reasons: lead.intentReasons,
    created_utc: lead.itemCreatedAt.toISOString(),
  };
}

/** The webhook settings; the signing secret appears only in the answer that created or rotated it. */
export function presentWebhook(row: ProjectWebhookRow | null, newSecret?: string): TWebhook {
  return {
    url: row?.url ?? null,
    enabled: row?.enabled ?? false,
    ...(newSecret ? { secret: newSecret } : {}),
    secret_last4: row?.secretLast4 ?? null,
    last_delivery_at: row?.lastDeliveryAt?.toISOString() ?? null,
    last_status: row?.lastStatus ?? null,
  };
}
