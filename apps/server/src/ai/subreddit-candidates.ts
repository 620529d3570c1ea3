import type { TKeywordSuggestion } from '@threadreach/contract';
import type { SubredditDirectory, SubredditInfo } from './subreddit-directory';

/** Searches per suggestion run: Reddit allows 100 requests a minute per client. */
export const MAX_QUERIES = 12;
export const RESULTS_PER_QUERY = 25;

const STOP = new Set([
  'a',
  'an',
  'and',
  'the',
  'of',
  'for',
  'to',
  'in',
  'on',
  'with',
  'by',
  'or',
  'at',
  'your',
  'my',
  'small',
  'new',
  'best',
  'free',
  'online',
  'tool',
  'app',
  'software',
  'platform',
  'service',
  'people',
  'customer',
  'customers',
  'client',
  'clients',
  'business',
  'businesses',
  'owner',
  'owners',
  'beginner',
  'beginners',
  'paying',
  'tight',
  'part-time',
  'time',
  'one',
  'way',
]);

/** Crude stem for matching word starts: "photographers" -> "photograph", "landlords" -> "landlord". */
export function stem(word: string): string {
  const w = word.toLowerCase();
  // Longer suffixes need a longer stem: "photographers" -> "photograph", but "founders" -> "founder".
  for (const [suffix, min] of [
    ['ations', 4],
    ['ation', 4],
    ['ers', 6],
    ['ing', 5],
    ['ies', 4],
    ['es', 4],
    ['s', 4],
  ] as const) {
    if (w.endsWith(suffix) && w.length - suffix.length >= min) return w.slice(0, -suffix.length);
  }
  return w;
}

/** Content words of a keyword, stemmed: "bootstrapped SaaS startups" -> ["bootstrapp", "saas", "startup"]. */
export function keywordStems(keyword: string): string[] {
  return keyword
    .toLowerCase()
    .split(/[\s/]+/)
    .map((w) => w.replace(/[^a-z0-9-]/g, ''))
    .filter((w) => w.length >= 3 && !STOP.has(w))
    .map(stem)
    .filter((w) => !STOP.has(w));
}

/**
 * Search terms for a keyword list: one content word per search (a plain search box, like the
 * simulator's, needs every word of a query to match), taking ICP and product keywords in turn so
 * that both the people and the problem are searched. Participles ("failed") only qualify a noun.
 */
export function searchQueries(keywords: TKeywordSuggestion[], max = MAX_QUERIES): string[] {
  const icp = keywords.filter((k) => k.type === 'icp');
  const product = keywords.filter((k) => k.type === 'product');
  const ordered: string[] = [];
  for (let i = 0; i < Math.max(icp.length, product.length); i++) {
    if (icp[i]) ordered.push(icp[i]!.keyword);
    if (product[i]) ordered.push(product[i]!.keyword);
  }
  const queries: string[] = [];
  for (const keyword of ordered) {
    const words = keyword
      .toLowerCase()
      .split(/\s+/)
      .filter((w) => !w.endsWith('ed'));
    const stems = keywordStems(words.join(' ')).reverse();
    for (const q of stems) {
      if (queries.length >= max) return queries;
      if (!queries.includes(q)) queries.push(q);
    }
  }
  return queries;
}

export interface Candidate {
  info: SubredditInfo;
  /** The searches that found it. */
  queries: string[];
}

/** Every subreddit the keyword searches find, by lower-case name, minus the excluded ones. */
export async function gatherCandidates(
  directory: SubredditDirectory,
  keywords: TKeywordSuggestion[],
  exclude: string[] = [],
): Promise<{ candidates: Map<string, Candidate>; queries: string[] }> {
  const queries = searchQueries(keywords);
  const skip = new Set(exclude.map((n) => n.toLowerCase()));
  const results = await Promise.all(queries.map((q) => directory.searchSubreddits(q, RESULTS_PER_QUERY)));
  const candidates = new Map<string, Candidate>();
  results.forEach((infos, i) => {
    for (const info of infos) {
      const key = info.name.toLowerCase();
      if (skip.has(key)) continue;
      const c = candidates.get(key);
      if (c) c.queries.push(queries[i]!);
      else candidates.set(key, { info, queries: [queries[i]!] });
    }
  });
  return { candidates, queries };
}

/**
 * Member counts for the chosen subreddits, from `/r/{sub}/about` when the search did not give them;
 * a subreddit the about call does not find is dropped.
 */
export async function withMembers(
  directory: SubredditDirectory,
  infos: SubredditInfo[],
): Promise<SubredditInfo[]> {
  const filled = await Promise.all(
    infos.map(async (info) => (info.subscribers === null ? directory.aboutSubreddit(info.name) : info)),
  );
  return filled.filter((i): i is SubredditInfo => i !== null);
}
