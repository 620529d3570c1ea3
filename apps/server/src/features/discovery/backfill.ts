import { RedditApiError } from '../../integrations/reddit';
import type { ProjectRules } from './matcher';
import { PAGE_LIMIT, type ListedItem, type RedditReader } from './reddit-reader';

/** Reddit refuses longer search queries. */
export const SEARCH_QUERY_MAX = 512;
/** Keywords beyond what fits in this many queries are left to the cycle: a backfill stays cheap. */
export const BACKFILL_QUERIES_MAX = 3;

/** A keyword as a search term: phrases quoted, characters the search syntax reads dropped. */
function searchTerm(keyword: string): string {
  const clean = keyword.replace(/["()]/g, ' ').replace(/\s+/g, ' ').trim();
  if (!clean) return '';
  return /^[\p{L}\p{N}_'-]+$/u.test(clean) && !/^(OR|AND|NOT)$/i.test(clean) ? clean : `"${clean}"`;
}

/** The keywords as `a OR "b c" OR …` queries of bounded length, at most BACKFILL_QUERIES_MAX of them. */
export function backfillQueries(keywords: string[]): string[] {
  const queries: string[] = [];
  let current = '';
  for (const term of [...new Set(keywords.map(searchTerm).filter(Boolean))]) {
    if (term.length > SEARCH_QUERY_MAX) continue;
    const joined = current ? `${current} OR ${term}` : term;
    if (joined.length <= SEARCH_QUERY_MAX) {
      current = joined;
      continue;
    }
    queries.push(current);
    if (queries.length === BACKFILL_QUERIES_MAX) return queries;
    current = term;
  }
  if (current) queries.push(current);
  return queries.slice(0, BACKFILL_QUERIES_MAX);
}

/**
 * A subreddit's recent history for one project: a search of its newest posts for the project's keywords,
 * or its newest posts when the project takes every post. A subreddit Reddit refuses to show (banned,
 * private, gone) has no history to read.
 */
export async function readBackfill(
  reader: RedditReader,
  rules: ProjectRules,
  subreddit: string,
): Promise<ListedItem[]> {
  try {
    if (rules.withoutKeywords) {
      return (await reader.list('t3', [subreddit], { limit: PAGE_LIMIT })).items;
    }
    const items: ListedItem[] = [];
    for (const q of backfillQueries(rules.keywords))
      items.push(...(await reader.search(subreddit, q, PAGE_LIMIT)));
    return items;
  } catch (error) {
    if (error instanceof RedditApiError) return [];
    throw error;
  }
}
