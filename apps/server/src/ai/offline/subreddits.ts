import type { TKeywordSuggestion, TSubredditSuggestion } from '@threadreach/contract';
import type { SuggestSubredditsInput } from '../ai.provider';
import { type Candidate, gatherCandidates, keywordStems, withMembers } from '../subreddit-candidates';
import type { SubredditDirectory, SubredditInfo } from '../subreddit-directory';

/** Below this relevance a subreddit is not suggested. */
export const MIN_RELEVANCE = 0.4;
/** When fewer than MIN_SUGGESTIONS reach MIN_RELEVANCE, the best ones above this are offered. */
export const FALLBACK_RELEVANCE = 0.3;
export const MIN_SUGGESTIONS = 3;

/** Searchable text of a subreddit: "FirstTimeHomeBuyer" reads as "first time home buyer". */
function textOf(info: SubredditInfo): { head: string; all: string } {
  const name = info.name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/_/g, ' ')
    .toLowerCase();
  const head = `${name} ${info.name.toLowerCase()} ${info.title.toLowerCase()}`;
  return { head, all: `${head} ${info.publicDescription.toLowerCase()}` };
}

/** A stem matches at the start of a word with a short ending: "photograph" matches "photographers". */
function stemPattern(stem: string): RegExp {
  return new RegExp(`\\b${stem.replace(/[^a-z0-9]/g, (c) => `\\${c}`)}[a-z]{0,5}\\b`);
}

interface Scored {
  info: SubredditInfo;
  score: number;
  matched: string[];
  queries: number;
}

/**
 * Relevance in 0-1 from the distinct keyword words a subreddit's name, title and description contain.
 * A word counts by how central it is to the keywords (how many carry it, by rank), fully in the name
 * or title and less in the description; being found by several searches adds a little. One peripheral
 * word ("posts" in "r/postprocessing") is not enough.
 */
export function scoreCandidates(
  candidates: Candidate[],
  keywords: TKeywordSuggestion[],
  totalQueries: number,
): Scored[] {
  const weightOf = new Map<string, number>();
  const keywordOf = new Map<string, string>();
  for (const type of ['icp', 'product'] as const) {
    keywords
      .filter((k) => k.type === type)
      .forEach((k, rank) => {
        const w = 1 / (1 + 0.1 * rank);
        const stems = keywordStems(k.keyword);
        stems.forEach((s, i) => {
          // The last word names the thing or the people ("saas founders"); the others qualify it.
          const role = i === stems.length - 1 ? 1 : 0.6;
          weightOf.set(s, (weightOf.get(s) ?? 0) + w * role);
          if (!keywordOf.has(s)) keywordOf.set(s, k.keyword);
        });
      });
  }
  const stems = [...weightOf.keys()];
  const patterns = new Map(stems.map((s) => [s, stemPattern(s)]));
  const centrality = (s: string) => Math.min(1, weightOf.get(s)! / 1.5);

  return candidates.map((c) => {
    const text = textOf(c.info);
    let miss = 1;
    let inHead = false;
    const matched = new Set<string>();
    for (const s of stems) {
      const pattern = patterns.get(s)!;
      if (!pattern.test(text.all)) continue;
      const head = pattern.test(text.head);
      miss *= 1 - 0.6 * centrality(s) * (head ? 1 : 0.7);
      inHead ||= head;
      matched.add(keywordOf.get(s)!);
    }
    const searches = 0.1 * Math.min(1, c.queries.length / Math.max(1, Math.min(3, totalQueries)));
    const score = matched.size ? Math.min(1, 0.75 * (1 - miss) + (inHead ? 0.1 : 0) + searches) : 0;
    return {
      info: c.info,
      score: Math.round(score * 100) / 100,
      matched: [...matched],
      queries: c.queries.length,
    };
  });
}

function reasonOf(s: Scored, totalQueries: number): string {
  const quoted = s.matched.slice(0, 3).map((k) => `"${k}"`);
  const about = quoted.length ? `About ${quoted.join(', ')}` : 'Found by search';
  return `${about}; found by ${s.queries} of ${totalQueries} keyword searches`;
}

/** Step 3 offline: search with the keywords, score what was found, keep the relevant ones. */
export async function suggestSubredditsOffline(
  directory: SubredditDirectory,
  input: SuggestSubredditsInput,
): Promise<TSubredditSuggestion[]> {
  const { candidates, queries } = await gatherCandidates(directory, input.keywords, input.exclude);
  const ranked = scoreCandidates([...candidates.values()], input.keywords, queries.length).sort(
    (a, b) => b.score - a.score || (b.info.subscribers ?? 0) - (a.info.subscribers ?? 0),
  );
  // Thin descriptions give thin evidence: rather than nothing, offer the best few weaker matches.
  let scored = ranked.filter((s) => s.score >= MIN_RELEVANCE);
  if (scored.length < MIN_SUGGESTIONS) {
    scored = ranked.filter((s) => s.score >= FALLBACK_RELEVANCE).slice(0, MIN_SUGGESTIONS);
  }
  scored = scored.slice(0, input.limit);
  const infos = await withMembers(
    directory,
    scored.map((s) => s.info),
  );
  const byName = new Map(scored.map((s) => [s.info.name.toLowerCase(), s]));
  return infos.map((info) => {
    const s = byName.get(info.name.toLowerCase())!;
    return {
      subreddit_name: info.name,
      description: info.publicDescription || info.title,
      estimated_members: info.subscribers ?? 0,
      relevance_score: s.score,
      reason: reasonOf(s, queries.length),
    };
  });
}
