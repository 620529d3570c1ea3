import {
  compileMatcher,
  type MatchableItem,
  type ProjectRules,
} from '../../apps/server/src/features/discovery/matcher';
import { Corpus } from '../../packages/reddit-sim/src/corpus/corpus';

export interface Throughput {
  items: number;
  megabytes: number;
  compileMs: number;
  /** Median of the rounds. */
  oursMBps: number;
  naiveMBps: number;
  /** Project leads each found in one pass: whole words and negatives against any substring. */
  oursLeads: number;
  naiveLeads: number;
}

/** The simulator's posts and comments of the benchmark's subreddits over `hours` before `now`. */
export function corpusItems(subreddits: string[], now: number, hours: number): MatchableItem[] {
  const corpus = new Corpus(42, now);
  const since = now - hours * 3600_000;
  const items: MatchableItem[] = [];
  for (const name of subreddits) {
    const sub = corpus.subreddit(name);
    if (!sub) throw new Error(`the simulator has no r/${name}`);
    for (const stub of corpus.stubs('t3', sub.index, now)) {
      if (stub.time < since) break;
      const { title, selftext } = corpus.postText(stub);
      const author = corpus.author(stub).name;
      items.push({
        name: corpus.fullname(stub),
        kind: 't3',
        subreddit: sub.name,
        author,
        title,
        body: selftext,
      });
    }
    for (const stub of corpus.stubs('t1', sub.index, now)) {
      if (stub.time < since) break;
      const author = corpus.author(stub).name;
      const body = corpus.commentBody(stub);
      items.push({ name: corpus.fullname(stub), kind: 't1', subreddit: sub.name, author, title: '', body });
    }
  }
  return items;
}

/** The obvious engine: for each project watching the item's subreddit, `includes` per keyword. */
function naiveMatcher(rules: ProjectRules[]) {
  const bySub = new Map<string, { id: string; keywords: string[] }[]>();
  for (const r of rules) {
    for (const sub of r.subreddits) {
      const list = bySub.get(sub) ?? [];
      list.push({ id: r.projectId, keywords: r.keywords.map((k) => k.toLowerCase()) });
      bySub.set(sub, list);
    }
  }
  return (item: MatchableItem): number => {
    const projects = bySub.get(item.subreddit.toLowerCase());
    if (!projects) return 0;
    const title = item.title.toLowerCase();
    const body = item.body.toLowerCase();
    let leads = 0;
    for (const p of projects) {
      let hit = false;
      for (const k of p.keywords) if (title.includes(k) || body.includes(k)) hit = true;
      if (hit) leads++;
    }
    return leads;
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * Megabytes of post and comment text (UTF-8) per second through the compiled matcher and through the
 * naive loop, rounds interleaved so both see the same machine load.
 */
export function measureThroughput(rules: ProjectRules[], items: MatchableItem[], rounds = 5): Throughput {
  const bytes = items.reduce((n, i) => n + Buffer.byteLength(i.title) + Buffer.byteLength(i.body), 0);
  const started = performance.now();
  const matcher = compileMatcher(rules);
  const compileMs = performance.now() - started;
  const naive = naiveMatcher(rules);

  let oursLeads = 0;
  let naiveLeads = 0;
  // Warm both up (the pattern is compiled by the engine on first use).
  for (const item of items) oursLeads += matcher.match(item).length;
  for (const item of items) naiveLeads += naive(item);
  const ours: number[] = [];
  const plain: number[] = [];
  for (let r = 0; r < rounds; r++) {
    let t0 = performance.now();
    for (const item of items) matcher.match(item);
    ours.push(bytes / 1e6 / ((performance.now() - t0) / 1000));
    t0 = performance.now();
    for (const item of items) naive(item);
    plain.push(bytes / 1e6 / ((performance.now() - t0) / 1000));
  }
  return {
    items: items.length,
    megabytes: bytes / 1e6,
    compileMs,
    oursMBps: median(ours),
    naiveMBps: median(plain),
    oursLeads,
    naiveLeads,
  };
}
