import { TOPICS, type TopicDef } from '../../packages/reddit-sim/src/corpus/topics';
import type { ProjectRules } from '../../apps/server/src/features/discovery/matcher';

/**
 * The benchmark's customers: 100 projects of 10 keywords over 50 subreddits of the simulator. Projects
 * of one field share that field's two busiest subreddits (so those are watched by 15-30 projects each),
 * add a few of the field's smaller ones, and some add a neighbouring field's. Keywords are the field's
 * products and phrases of its tasks, as the simulator writes them, so posts and comments match.
 */
export interface BenchProject {
  name: string;
  topic: string;
  keywords: string[];
  negativeKeywords: string[];
  /** As the simulator spells them. */
  subreddits: string[];
}

/** Fields and how many projects each has; their subreddits make the 50. */
const FIELDS: [topic: string, projects: number, subreddits: number][] = [
  ['saas', 30, 12],
  ['marketing', 20, 10],
  ['freelancing', 20, 10],
  ['ecommerce', 15, 10],
  ['finance', 15, 8],
];
const KEYWORDS_PER_PROJECT = 10;
const STOPWORDS = new Set(
  'a an the to for of and or in on at my our your with without from by that what is it do does who need needs based users user people their them they this be can i we you not one'.split(
    ' ',
  ),
);

/** A small seeded generator (mulberry32), so every run builds the same customers. */
export function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function topic(id: string): TopicDef {
  const t = TOPICS.find((x) => x.id === id);
  if (!t) throw new Error(`no simulator topic ${id}`);
  return t;
}

const subName = (line: string) => line.split('|')[0]!;
const members = (line: string) => Number(line.split('|')[3] ?? 0);

/** The field's products, then two-word phrases of its tasks and contexts. */
export function keywordPool(t: TopicDef): { things: string[]; phrases: string[] } {
  const things = t.things.map((x) => x.toLowerCase());
  const phrases = new Set<string>();
  for (const text of [...t.tasks, ...t.contexts]) {
    const words = text
      .toLowerCase()
      .replace(/[^a-z0-9$' -]/g, ' ')
      .split(/\s+/)
      .filter(Boolean);
    for (let i = 0; i + 2 <= words.length; i++) {
      const pair = words.slice(i, i + 2);
      if (!STOPWORDS.has(pair[0]!) && !STOPWORDS.has(pair[1]!) && !/\d/.test(pair.join(' '))) {
        phrases.add(pair.join(' '));
      }
    }
  }
  return { things, phrases: [...phrases].filter((p) => !things.includes(p)) };
}

function pick<T>(list: T[], n: number, rnd: () => number): T[] {
  const copy = [...list];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy.slice(0, n);
}

export function buildScenario(seed = 7): { projects: BenchProject[]; subreddits: string[] } {
  const rnd = random(seed);
  const fields = FIELDS.map(([id, count, subs]) => {
    const t = topic(id);
    // The busiest subreddits first: the two at the top are every project's of the field.
    const lines = t.subs.slice(0, subs).sort((a, b) => members(b) - members(a));
    return { t, count, hubs: lines.slice(0, 2).map(subName), rest: lines.slice(2).map(subName) };
  });
  const subreddits = fields.flatMap((f) => [...f.hubs, ...f.rest]);
  const projects: BenchProject[] = [];
  for (const [index, f] of fields.entries()) {
    const pool = keywordPool(f.t);
    for (let i = 0; i < f.count; i++) {
      const things = pick(pool.things, 3 + Math.floor(rnd() * 3), rnd);
      const phrases = pick(pool.phrases, KEYWORDS_PER_PROJECT - things.length, rnd);
      const subs = [...f.hubs, ...pick(f.rest, 1 + Math.floor(rnd() * 4), rnd)];
      if (rnd() < 0.3) {
        const neighbour = fields[(index + 1) % fields.length]!;
        subs.push(pick(neighbour.hubs, 1, rnd)[0]!);
      }
      projects.push({
        name: `${f.t.id}-${i + 1}`,
        topic: f.t.id,
        keywords: [...things, ...phrases],
        // Some customers rule out promotion threads, as the step 2 screen lets them.
        negativeKeywords: rnd() < 0.25 ? ['product hunt'] : [],
        subreddits: [...new Set(subs)],
      });
    }
  }
  return { projects, subreddits };
}

export function rulesOf(projectId: string, p: BenchProject): ProjectRules {
  return {
    projectId,
    keywords: p.keywords,
    negativeKeywords: p.negativeKeywords,
    subreddits: p.subreddits.map((s) => s.toLowerCase()),
    excludedSubreddits: [],
    excludedAuthors: [],
    withoutKeywords: false,
  };
}
