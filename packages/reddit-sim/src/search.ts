import type { Corpus, SimSubreddit, Stub } from './corpus/corpus';

/** Reddit stops returning search results after about this many. */
const SEARCH_CAP = 250;
/** How far back each subreddit is scanned: all of a listing for narrow searches, less for site-wide ones. */
const NARROW_DEPTH = 1000;
const WIDE_DEPTH = 100;

const WINDOWS: Record<string, number> = {
  hour: 3600_000,
  day: 86_400_000,
  week: 7 * 86_400_000,
  month: 30 * 86_400_000,
  year: 365 * 86_400_000,
};

interface Term {
  text: string;
  negate: boolean;
  field?: 'title' | 'subreddit' | 'author' | 'selftext';
}

/** A small subset of Reddit's search syntax: words, "phrases", -negation, OR, and title:/subreddit:/author:/selftext:. */
export function parseQuery(q: string): Term[][] {
  const clauses: Term[][] = [[]];
  const re = /(-?)(?:(title|subreddit|author|selftext):)?(?:"([^"]*)"|(\S+))/gi;
  for (const m of q.matchAll(re)) {
    const word = m[4];
    if (word === 'OR' && !m[1] && !m[2]) {
      clauses.push([]);
      continue;
    }
    if (word === 'AND' && !m[1] && !m[2]) continue;
    const text = (m[3] ?? word ?? '').toLowerCase().trim();
    if (!text) continue;
    const field = m[2]?.toLowerCase() as Term['field'] | undefined;
    clauses[clauses.length - 1]?.push({ text, negate: m[1] === '-', field });
  }
  return clauses.filter((c) => c.length > 0);
}

interface Doc {
  title: string;
  selftext: string;
  subreddit: string;
  author: string;
}

function termHits(term: Term, doc: Doc): number {
  switch (term.field) {
    case 'title':
      return doc.title.includes(term.text) ? 3 : 0;
    case 'selftext':
      return doc.selftext.includes(term.text) ? 1 : 0;
    case 'subreddit':
      return doc.subreddit === term.text ? 1 : 0;
    case 'author':
      return doc.author === term.text ? 1 : 0;
    default:
      return (doc.title.includes(term.text) ? 3 : 0) + (doc.selftext.includes(term.text) ? 1 : 0);
  }
}

/** Relevance of a document, or 0 when it does not match. */
function relevance(clauses: Term[][], doc: Doc): number {
  let best = 0;
  for (const clause of clauses) {
    let score = 0;
    let ok = true;
    for (const term of clause) {
      const hits = termHits(term, doc);
      if (term.negate ? hits > 0 : hits === 0) {
        ok = false;
        break;
      }
      score += term.negate ? 0 : hits;
    }
    if (ok) best = Math.max(best, score || 1);
  }
  return best;
}

export function searchPosts(
  corpus: Corpus,
  subs: SimSubreddit[],
  query: URLSearchParams,
  now: number,
): Stub[] {
  const clauses = parseQuery(query.get('q') ?? '');
  if (clauses.length === 0) return [];
  const window = WINDOWS[(query.get('t') ?? 'all').toLowerCase()];
  const since = window === undefined ? -Infinity : now - window;
  const depth = subs.length <= 10 ? NARROW_DEPTH : WIDE_DEPTH;
  const matches: Array<{ stub: Stub; score: number }> = [];
  for (const sub of subs) {
    for (const stub of corpus.stubs('t3', sub.index, now, depth)) {
      if (stub.time < since) break;
      const text = corpus.postText(stub);
      const doc: Doc = {
        title: text.title.toLowerCase(),
        selftext: text.selftext.toLowerCase(),
        subreddit: sub.name.toLowerCase(),
        author: corpus.author(stub).name.toLowerCase(),
      };
      const score = relevance(clauses, doc);
      if (score > 0) matches.push({ stub, score });
    }
  }
  const sort = (query.get('sort') ?? 'relevance').toLowerCase();
  const byTime = (a: { stub: Stub }, b: { stub: Stub }) =>
    b.stub.time - a.stub.time || b.stub.sub - a.stub.sub;
  if (sort === 'new') {
    matches.sort(byTime);
  } else if (sort === 'top' || sort === 'comments') {
    const key = new Map<Stub, number>();
    for (const m of matches) {
      const post = corpus.post(m.stub, now);
      key.set(m.stub, sort === 'top' ? post.score : post.num_comments);
    }
    matches.sort((a, b) => (key.get(b.stub) ?? 0) - (key.get(a.stub) ?? 0) || byTime(a, b));
  } else {
    matches.sort((a, b) => b.score - a.score || byTime(a, b));
  }
  return matches.slice(0, SEARCH_CAP).map((m) => m.stub);
}
