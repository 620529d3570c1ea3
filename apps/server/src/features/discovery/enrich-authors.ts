import type { AppContext } from '../../context';
import {
  RedditApiError,
  RedditBudgetExhaustedError,
  RedditUnavailableError,
  type TRedditUser,
} from '../../integrations/reddit';
import { noteAuthorUnanswered, saveAuthor, type NewRedditAuthor } from './discovery.repository';
import type { RedditReader } from './reddit-reader';

const USER_NAME = /^[A-Za-z0-9_-]{3,20}$/;
/** A profile description longer than this is cut: it is shown as a preview. */
const BIO_MAX = 2000;

/**
 * Look-ups in a row Reddit does not answer that stop the authors: one or two are taken for single bad
 * profiles and skipped, three in a row more likely mean Reddit is down, which then costs three requests
 * (six with broken connections) instead of one per author. Authors left unanswered before are read after
 * the others, so known bad profiles do not line up to reach it.
 */
const UNANSWERED_IN_A_ROW_MAX = 3;
/** Authors of leads older than this are not read any more. */
export const ENRICH_WINDOW_MS = 7 * 86_400_000;

export interface EnrichOutcome {
  /** Authors read and saved (missing accounts included). */
  enriched: number;
  /** Authors Reddit did not answer, left unsaved: a later look-up reads them again, after the others. */
  unanswered: number;
  /**
   * Stopped before the end of the list: the budget is spent, or Reddit looks down (that many look-ups
   * in a row unanswered). The authors not asked wait for later.
   */
  interrupted: boolean;
}

/**
 * Reads `/user/{name}/about` once per author into the cache every tenant shares: account age, karma and
 * the profile's description; deleted and suspended accounts are marked missing. An author Reddit does not
 * answer is noted and skipped, and the next one read. Stops, without failing, when the budget is spent or
 * Reddit looks down.
 */
export async function enrichAuthors(
  ctx: AppContext,
  reader: RedditReader,
  names: string[],
): Promise<EnrichOutcome> {
  const outcome: EnrichOutcome = { enriched: 0, unanswered: 0, interrupted: false };
  let inARow = 0;
  for (const name of names) {
    const now = new Date(ctx.clock.now());
    if (!USER_NAME.test(name)) {
      await saveAuthor(ctx.db, missingAuthor(name, now));
      outcome.enriched++;
      continue;
    }
    let user: TRedditUser | null;
    try {
      user = await reader.call((api) => api.aboutUser(name));
    } catch (error) {
      if (error instanceof RedditBudgetExhaustedError) return { ...outcome, interrupted: true };
      if (error instanceof RedditUnavailableError) {
        // Not saved: a later look-up reads it again, after the authors never left unanswered.
        await noteAuthorUnanswered(ctx.db, name, now);
        outcome.unanswered++;
        inARow++;
        ctx.log.warn({ author: name, err: error }, 'Reddit did not answer: author look-up skipped');
        if (inARow >= UNANSWERED_IN_A_ROW_MAX) return { ...outcome, interrupted: true };
        continue;
      }
      if (!(error instanceof RedditApiError)) throw error;
      // Reddit refuses to show this account (403 and the like): nothing to read, now or later.
      user = null;
    }
    inARow = 0;
    await saveAuthor(ctx.db, user ? authorRow(name, user, now) : missingAuthor(name, now));
    outcome.enriched++;
  }
  return outcome;
}

function missingAuthor(name: string, now: Date): NewRedditAuthor {
  return { nameLower: name.toLowerCase(), name, missing: true, bio: '', fetchedAt: now };
}

function authorRow(name: string, user: TRedditUser, now: Date): NewRedditAuthor {
  if (user.is_suspended === true || !('created_utc' in user)) return missingAuthor(name, now);
  const profile = (user as { subreddit?: { public_description?: unknown } }).subreddit;
  const bio = typeof profile?.public_description === 'string' ? profile.public_description : '';
  return {
    nameLower: name.toLowerCase(),
    name: user.name,
    accountCreatedAt: new Date(user.created_utc * 1000),
    commentKarma: Math.round(user.comment_karma),
    linkKarma: Math.round(user.link_karma),
    bio: bio.slice(0, BIO_MAX),
    missing: false,
    fetchedAt: now,
  };
}
