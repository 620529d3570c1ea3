import type { AppContext } from '../../context';
import {
  RedditApiError,
  RedditBudgetExhaustedError,
  RedditUnavailableError,
  type TRedditUser,
} from '../../integrations/reddit';
import { saveAuthor, type NewRedditAuthor } from './discovery.repository';
import type { RedditReader } from './reddit-reader';

const USER_NAME = /^[A-Za-z0-9_-]{3,20}$/;
/** A profile description longer than this is cut: it is shown as a preview. */
const BIO_MAX = 2000;

export interface EnrichOutcome {
  enriched: number;
  /** The budget ran out (or Reddit was down) before every author was read: the rest waits for later. */
  interrupted: boolean;
}

/**
 * Reads `/user/{name}/about` once per author into the cache every tenant shares: account age, karma and
 * the profile's description; deleted and suspended accounts are marked missing. Stops, without failing,
 * when the budget is spent or Reddit is unavailable.
 */
export async function enrichAuthors(
  ctx: AppContext,
  reader: RedditReader,
  names: string[],
): Promise<EnrichOutcome> {
  let enriched = 0;
  for (const name of names) {
    const now = new Date(ctx.clock.now());
    if (!USER_NAME.test(name)) {
      await saveAuthor(ctx.db, missingAuthor(name, now));
      enriched++;
      continue;
    }
    let user: TRedditUser | null;
    try {
      user = await reader.call((api) => api.aboutUser(name));
    } catch (error) {
      if (error instanceof RedditBudgetExhaustedError || error instanceof RedditUnavailableError) {
        return { enriched, interrupted: true };
      }
      if (!(error instanceof RedditApiError)) throw error;
      // Reddit refuses to show this account (403 and the like): nothing to read, now or later.
      user = null;
    }
    await saveAuthor(ctx.db, user ? authorRow(name, user, now) : missingAuthor(name, now));
    enriched++;
  }
  return { enriched, interrupted: false };
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
