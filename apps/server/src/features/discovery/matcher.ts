import type { TMatchReason } from '@threadreach/contract';

/** What one project looks for, as the discovery cycle hands it to the matcher. */
export interface ProjectRules {
  projectId: string;
  /** Approved keywords (product and ICP). */
  keywords: string[];
  /** An item holding any of these is never a lead of the project. */
  negativeKeywords: string[];
  /** Lower-case subreddit names the project approved. */
  subreddits: string[];
  /** Lower-case names. */
  excludedSubreddits: string[];
  excludedAuthors: string[];
  /** Every item of the approved subreddits is a lead, keywords or not. */
  withoutKeywords: boolean;
}

/** A post (t3) or comment (t1) as read from a listing. */
export interface MatchableItem {
  name: string;
  kind: 't3' | 't1';
  subreddit: string;
  author: string;
  /** Posts: the title; comments: empty (their post's title is not theirs). */
  title: string;
  body: string;
}

export interface ItemMatch {
  projectId: string;
  /** Distinct keywords found, in the project's spelling, in order of first occurrence. */
  matchedKeywords: string[];
  matches: TMatchReason[];
}

export interface Matcher {
  /** Every project the item is a lead of, with why. */
  match(item: MatchableItem): ItemMatch[];
}

/** Lower case without accents, with a map from each folded character back to the original offset. */
export function fold(text: string): { folded: string; offsets: number[] } {
  let folded = '';
  const offsets: number[] = [];
  for (let i = 0; i < text.length;) {
    const cp = text.codePointAt(i)!;
    const ch = String.fromCodePoint(cp);
    const base = ch.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
    for (let j = 0; j < base.length; j++) {
      folded += base[j];
      offsets.push(i);
    }
    i += ch.length;
  }
  offsets.push(text.length);
  return { folded, offsets };
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A keyword as a pattern: its words in order, any run of spaces between them. */
function keywordPattern(keyword: string): string {
  return fold(keyword.trim()).folded.split(/\s+/).filter(Boolean).map(escape).join('\\s+');
}

const BOUNDARY_BEFORE = '(?<![\\p{L}\\p{N}_])';
const BOUNDARY_AFTER = '(?![\\p{L}\\p{N}_])';

/**
 * The matcher of all projects' rules. Keywords match whole words, whatever their case or accents.
 */
export function compileMatcher(rules: ProjectRules[]): Matcher {
  const compiled = rules.map((r) => ({
    rules: r,
    subreddits: new Set(r.subreddits),
    excludedSubreddits: new Set(r.excludedSubreddits),
    excludedAuthors: new Set(r.excludedAuthors.map((a) => a.toLowerCase())),
    keywords: r.keywords
      .filter((k) => keywordPattern(k))
      .map((k) => ({
        keyword: k,
        re: new RegExp(BOUNDARY_BEFORE + keywordPattern(k) + BOUNDARY_AFTER, 'gu'),
      })),
    negatives: r.negativeKeywords
      .filter((k) => keywordPattern(k))
      .map((k) => new RegExp(BOUNDARY_BEFORE + keywordPattern(k) + BOUNDARY_AFTER, 'u')),
  }));
  return {
    match(item) {
      const sub = item.subreddit.toLowerCase();
      const author = item.author.toLowerCase();
      const fields = [
        { field: 'title' as const, ...fold(item.title) },
        { field: 'body' as const, ...fold(item.body) },
      ];
      const out: ItemMatch[] = [];
      for (const p of compiled) {
        if (!p.subreddits.has(sub) || p.excludedSubreddits.has(sub) || p.excludedAuthors.has(author))
          continue;
        if (p.negatives.some((re) => fields.some((f) => re.test(f.folded)))) continue;
        const matches: TMatchReason[] = [];
        for (const k of p.keywords) {
          for (const f of fields) {
            for (const m of f.folded.matchAll(k.re)) {
              const start = m.index;
              matches.push({
                keyword: k.keyword,
                field: f.field,
                start: f.offsets[start]!,
                end: f.offsets[start + m[0].length]!,
              });
            }
          }
        }
        if (matches.length === 0 && !p.rules.withoutKeywords) continue;
        matches.sort((a, b) => (a.field === b.field ? a.start - b.start : a.field === 'title' ? -1 : 1));
        out.push({
          projectId: p.rules.projectId,
          matchedKeywords: [...new Set(matches.map((m) => m.keyword))],
          matches,
        });
      }
      return out;
    },
  };
}
