import {
  DM_EMPTY,
  DM_LOCKED_STATES,
  DM_MAX_LENGTH,
  DM_TEXTS,
  DM_TOO_LONG,
  dmLength,
  type TDmGenerationResult,
  type TDmMessage,
  type TDmSourceType,
  type TDmState,
} from '@threadreach/contract';
import { ApiError } from '../../lib/api-error';
import { sendingStateLabel } from '../sending';

/** How spec section 8's delete texts name a DM. */
export const DM_ITEM = 'DM message';

export const SEND_UNAVAILABLE = 'Sending is not available yet';
export const SAVE_BEFORE_SENDING = 'Save your edit first';
/** Regenerate writes a new text over the DM: it waits until an edit is saved or undone, not to lose it. */
export const SAVE_BEFORE_REGENERATING = 'Save or undo your edit first: Regenerate writes a new text';

/** Edits kept for DMs on other pages of the list (or gone from it meanwhile), which Send All waits for. */
export function otherPagesEditsText(n: number): string {
  return n === 1
    ? 'A DM on another page has an unsaved edit.'
    : `${n} DMs on other pages have unsaved edits.`;
}

export const SOURCE_LABELS: Record<TDmSourceType, string> = {
  post: 'Post',
  comment: 'Comment',
  profile: 'Profile',
};

/** The source of a DM; reddit_post_id's prefix tells it when the type is missing (spec section 3). */
export function sourceOf(dm: Pick<TDmMessage, 'source_type' | 'reddit_post_id'>): TDmSourceType {
  if (dm.source_type) return dm.source_type;
  if (dm.reddit_post_id.startsWith('comment_')) return 'comment';
  if (dm.reddit_post_id.startsWith('profile_')) return 'profile';
  return 'post';
}

/** Sent or on its way: read-only. */
export const isLocked = (dm: Pick<TDmMessage, 'state'>) => DM_LOCKED_STATES.includes(dm.state);

/** Why a text cannot be saved, or null when it can. */
export function textProblem(text: string): string | null {
  if (text.trim() === '') return DM_EMPTY;
  if (dmLength(text.trim()) > DM_MAX_LENGTH) return DM_TOO_LONG;
  return null;
}

/** The DM list's status filter: each state by the badges its DMs show (stateLabel). */
export const DM_STATE_FILTERS: { value: TDmState | ''; label: string }[] = [
  { value: '', label: 'All statuses' },
  { value: 'draft', label: 'Draft' },
  { value: 'approved', label: 'Generated / Saved' },
  { value: 'queued', label: 'Queued' },
  { value: 'sending', label: 'Sending' },
  { value: 'sent', label: 'Sent' },
  { value: 'failed', label: 'Failed / Held back' },
  { value: 'unknown', label: 'Checking delivery / Delivery unknown' },
  { value: 'expired', label: 'Expired' },
];

/** The DM list when its search or status filter keeps none. */
export const NO_MATCHING_DMS = 'No DM matches this search and status.';

/** What the DM's badge says (spec section 4: generated, saved, sent; and the sending states). */
export function stateLabel(dm: TDmMessage): { label: string; color: string } {
  switch (dm.state) {
    case 'expired':
      return { label: 'Expired', color: 'gray' };
    case 'draft':
      return { label: 'Draft', color: 'gray' };
    case 'approved':
      return dm.edited ? { label: 'Saved', color: 'teal' } : { label: 'Generated', color: 'violet' };
    default:
      // On its way or done: as the sending status shows it.
      return sendingStateLabel({ state: dm.state, outcome_code: dm.outcome_code });
  }
}

/**
 * The reason of a refusal (a 4xx with the server's detail) to show beside the spec's text: the detail, or
 * for a 402 or 403 spec section 8's words for it; otherwise nothing.
 */
export function refusalDetail(error: unknown): string | null {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500 && error.detail)
    return error.message;
  return null;
}

const REGENERATION_TEXTS: readonly string[] = [
  DM_TEXTS.commentNotFound,
  DM_TEXTS.profileNotFound,
  DM_TEXTS.unknownSource,
  DM_TEXTS.noNewContent,
];

/** Spec section 8's regeneration texts: the server's when it is one of them, otherwise the general one. */
export function regenerationFailureText(error: unknown): string {
  if (error instanceof ApiError && error.detail && REGENERATION_TEXTS.includes(error.detail))
    return error.detail;
  return DM_TEXTS.regenerateFailed;
}

/**
 * 'Failed to generate DM messages', with the reason when there is one: for an error with the server's detail,
 * its text to show (a refusal's in spec section 8's words, otherwise that detail), or a text.
 */
export function generationFailureText(error: unknown): string {
  let detail = typeof error === 'string' ? error : null;
  if (error instanceof ApiError && error.detail) detail = error.message;
  return detail && detail !== DM_TEXTS.generateFailed
    ? `${DM_TEXTS.generateFailed}: ${detail}`
    : DM_TEXTS.generateFailed;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** What a finished "Generate All DMs" did, in a sentence. */
export function generationSummary(result: TDmGenerationResult | null): string {
  if (!result) return 'DM generation completed';
  const skipped = Object.values(result.skipped).reduce((a, b) => a + b, 0);
  const parts = [plural(result.generated, 'DM generated', 'DMs generated')];
  if (skipped > 0) parts.push(plural(skipped, 'lead skipped', 'leads skipped'));
  if (result.failed > 0) parts.push(plural(result.failed, 'failed', 'failed'));
  return parts.join(', ');
}
